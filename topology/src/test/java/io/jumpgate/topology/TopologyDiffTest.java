package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.TopologyDiff.NodeChangeKind;
import io.jumpgate.topology.internal.TopologyState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TopologyDiffTest {

  private static final Node A = Node.of("a", "10.0.0.1", 6379);
  private static final Node B = Node.of("b", "10.0.0.2", 6379);
  private static final Node C = Node.of("c", "10.0.0.3", 6379);

  /** Builds snapshots by hand: every shard led by a with b as replica unless changed. */
  private static final class Map4 {
    private String cluster = "test";
    private long revision = 10;
    private int shards = 4;
    private final Map<String, Node> nodes = new TreeMap<>(Map.of("a", A, "b", B, "c", C));
    private final Map<Integer, ShardRoute> routes = new TreeMap<>();
    private final List<InvalidEntry> invalid = new ArrayList<>();

    Map4 revision(long value) {
      revision = value;
      return this;
    }

    Map4 cluster(String value) {
      cluster = value;
      return this;
    }

    Map4 shards(int value) {
      shards = value;
      return this;
    }

    Map4 node(Node node) {
      nodes.put(node.id(), node);
      return this;
    }

    Map4 withoutNode(String id) {
      nodes.remove(id);
      return this;
    }

    Map4 route(ShardRoute route) {
      routes.put(route.shard(), route);
      return this;
    }

    Map4 invalid(String key, String reason, long modRevision) {
      invalid.add(new InvalidEntry(key, reason, modRevision));
      return this;
    }

    TopologySnapshot build() {
      ShardRoute[] array = new ShardRoute[shards];
      for (int shard = 0; shard < shards; shard++) {
        array[shard] =
            routes.getOrDefault(
                shard, ShardRoute.of(shard, A, List.of(B), 1, ShardState.ACTIVE, revision));
      }
      return TopologySnapshot.create(
          cluster, revision, TopologyMetadata.of(shards), nodes, array, invalid, Instant.EPOCH);
    }
  }

  private static Map4 map() {
    return new Map4();
  }

  private static ShardRoute route(int shard, Node leader, List<Node> replicas, long epoch) {
    return ShardRoute.of(shard, leader, replicas, epoch, ShardState.ACTIVE, 99);
  }

  @Test
  void the_same_map_at_another_revision_is_no_difference() {
    TopologyDiff diff = TopologyDiff.between(map().revision(5).build(), map().revision(9).build());

    assertThat(diff.isEmpty()).isTrue();
    assertThat(diff.changeCount()).isZero();
    assertThat(diff.lines()).isEmpty();
    assertThat(diff.toText()).isEmpty();
    assertThat(diff.revisionBefore()).isEqualTo(5);
    assertThat(diff.revisionAfter()).isEqualTo(9);
  }

  @Test
  void a_rewritten_route_with_the_same_content_is_no_difference() {
    TopologySnapshot before = map().build();
    TopologySnapshot after =
        map().route(ShardRoute.of(2, A, List.of(B), 1, ShardState.ACTIVE, 12345)).build();

    assertThat(TopologyDiff.between(before, after).isEmpty()).isTrue();
  }

  @Test
  void a_new_leader_is_one_line_with_the_epochs() {
    TopologyDiff diff =
        TopologyDiff.between(map().build(), map().route(route(2, B, List.of(A), 2)).build());

    assertThat(diff.lines())
        .containsExactly("shard 0002 leader a -> b, replicas [b] -> [a] (epoch 1 -> 2)");
    TopologyDiff.ShardChange change = diff.shardChanges().get(0);
    assertThat(change.shard()).isEqualTo(2);
    assertThat(change.leaderChanged()).isTrue();
    assertThat(change.replicasChanged()).isTrue();
    assertThat(change.epochChanged()).isTrue();
    assertThat(change.stateChanged()).isFalse();
    assertThat(change.availabilityChanged()).isFalse();
    assertThat(change.before().leader()).isEqualTo(A);
    assertThat(change.after().leader()).isEqualTo(B);
  }

  @Test
  void replicas_epoch_and_state_changes_are_named() {
    TopologySnapshot after =
        map()
            .route(route(0, A, List.of(B, C), 1))
            .route(route(1, A, List.of(B), 7))
            .route(ShardRoute.of(3, A, List.of(B), 1, ShardState.FROZEN, 1))
            .build();

    TopologyDiff diff = TopologyDiff.between(map().build(), after);

    assertThat(diff.lines())
        .containsExactly(
            "shard 0000 replicas [b] -> [b, c]",
            "shard 0001 epoch 1 -> 7",
            "shard 0003 state active -> frozen");
    assertThat(diff.shardChanges().get(0).leaderChanged()).isFalse();
    assertThat(diff.shardChanges().get(0).epochChanged()).isFalse();
  }

  @Test
  void a_shard_that_becomes_unavailable_or_available_says_so() {
    TopologySnapshot healthy = map().build();
    TopologySnapshot broken =
        map().route(ShardRoute.unavailable(1, "assignment deleted at revision 11")).build();

    TopologyDiff down = TopologyDiff.between(healthy, broken);
    TopologyDiff up = TopologyDiff.between(broken, healthy);

    assertThat(down.lines())
        .containsExactly(
            "shard 0001 unavailable: assignment deleted at revision 11 (was leader a, epoch 1)");
    assertThat(down.shardChanges().get(0).availabilityChanged()).isTrue();
    assertThat(down.shardChanges().get(0).leaderChanged()).isTrue();
    assertThat(up.lines())
        .containsExactly("shard 0001 available: leader a, replicas [b] (epoch 1)");
  }

  @Test
  void a_new_reason_for_an_unavailable_shard_is_a_change() {
    TopologySnapshot before = map().route(ShardRoute.unavailable(1, "no assignment")).build();
    TopologySnapshot after = map().route(ShardRoute.unavailable(1, "leader 'x' unknown")).build();

    assertThat(TopologyDiff.between(before, after).lines())
        .containsExactly("shard 0001 unavailable: leader 'x' unknown");
  }

  @Test
  void nodes_added_removed_and_changed_are_named_with_their_addresses() {
    Node d = new Node("d", "10.0.0.4", 7000, "az1", Map.of(), false);
    TopologySnapshot after =
        map()
            .node(d)
            .withoutNode("c")
            .node(new Node("b", "10.0.0.20", 6380, "az2", Map.of(), true))
            .build();

    TopologyDiff diff = TopologyDiff.between(map().build(), after);

    assertThat(diff.lines())
        .containsExactly(
            "node b address 10.0.0.2:6379 -> 10.0.0.20:6380, zone none -> az2, tls false -> true",
            "node c removed (was 10.0.0.3:6379)",
            "node d added 10.0.0.4:7000 (zone az1)");
    assertThat(diff.nodeChanges())
        .extracting(TopologyDiff.NodeChange::kind)
        .containsExactly(NodeChangeKind.CHANGED, NodeChangeKind.REMOVED, NodeChangeKind.ADDED);
    assertThat(diff.nodeChanges().get(0).addressChanged()).isTrue();
    assertThat(diff.nodeChanges().get(1).addressChanged()).isFalse();
    assertThat(diff.shardChanges()).isEmpty();
  }

  @Test
  void a_node_with_a_new_address_does_not_change_the_shards_it_serves() {
    Node moved = Node.of("a", "10.9.9.9", 6379);
    TopologySnapshot after =
        map()
            .node(moved)
            .route(route(0, moved, List.of(B), 1))
            .route(route(1, moved, List.of(B), 1))
            .build();

    TopologyDiff diff = TopologyDiff.between(map().build(), after);

    assertThat(diff.lines()).containsExactly("node a address 10.0.0.1:6379 -> 10.9.9.9:6379");
  }

  @Test
  void invalid_entries_appear_change_and_get_fixed() {
    String shard1 = "/jumpgate/test/shards/0001";
    String nodeX = "/jumpgate/test/nodes/x";
    String shard2 = "/jumpgate/test/shards/0002";
    TopologySnapshot before =
        map()
            .invalid(nodeX, "port must be between 1 and 65535, was 0", 3)
            .invalid(shard2, "\"leader\" is required", 4)
            .build();
    TopologySnapshot after =
        map()
            .invalid(shard2, "\"leader\" is required", 8)
            .invalid(shard1, "leader 'z' is not in the node table", 9)
            .build();

    TopologyDiff diff = TopologyDiff.between(before, after);

    assertThat(diff.lines())
        .containsExactly(
            "invalid: /jumpgate/test/shards/0001: leader 'z' is not in the node table",
            "invalid: /jumpgate/test/shards/0002: \"leader\" is required",
            "fixed: /jumpgate/test/nodes/x (was: port must be between 1 and 65535, was 0)");
    assertThat(diff.invalidAppeared())
        .extracting(InvalidEntry::key)
        .containsExactly(shard1, shard2);
    assertThat(diff.invalidFixed()).extracting(InvalidEntry::key).containsExactly(nodeX);
  }

  @Test
  void the_same_invalid_entry_is_no_difference() {
    TopologySnapshot before = map().invalid("/jumpgate/test/shards/0001", "bad", 3).build();
    TopologySnapshot after =
        map().revision(20).invalid("/jumpgate/test/shards/0001", "bad", 3).build();

    assertThat(TopologyDiff.between(before, after).isEmpty()).isTrue();
  }

  @Test
  void another_shard_count_changes_the_meta_and_adds_or_removes_shards() {
    TopologySnapshot four = map().build();
    TopologySnapshot six =
        map().shards(6).route(ShardRoute.unavailable(5, "no assignment")).build();

    TopologyDiff grown = TopologyDiff.between(four, six);
    TopologyDiff shrunk = TopologyDiff.between(six, four);

    assertThat(grown.metadataChanged()).isTrue();
    assertThat(grown.lines())
        .containsExactly(
            "meta format 1, 4 shards, routing xxh64-jump -> format 1, 6 shards, routing xxh64-jump",
            "shard 0004 added: leader a, replicas [b] (epoch 1)",
            "shard 0005 added: unavailable: no assignment");
    assertThat(grown.shardChanges().get(0).before()).isNull();
    assertThat(shrunk.lines())
        .containsExactly(
            "meta format 1, 6 shards, routing xxh64-jump -> format 1, 4 shards, routing xxh64-jump",
            "shard 0004 removed (was leader a, replicas [b] (epoch 1))",
            "shard 0005 removed (was unavailable: no assignment)");
  }

  @Test
  void lines_come_in_a_stable_order_cluster_meta_nodes_shards_invalid() {
    TopologySnapshot after =
        map()
            .cluster("other")
            .shards(5)
            .node(Node.of("d", "10.0.0.4", 1))
            .route(route(0, B, List.of(), 2))
            .invalid("/jumpgate/other/meta", "meta is never changed", 3)
            .build();

    TopologyDiff diff = TopologyDiff.between(map().build(), after);

    assertThat(diff.clusterChanged()).isTrue();
    assertThat(diff.changeCount()).isEqualTo(diff.lines().size()).isEqualTo(6);
    assertThat(diff.lines().get(0)).isEqualTo("cluster test -> other");
    assertThat(diff.lines().get(1)).startsWith("meta ");
    assertThat(diff.lines().get(2)).startsWith("node d added");
    assertThat(diff.lines().get(3)).startsWith("shard 0000 leader a -> b");
    assertThat(diff.lines().get(4)).startsWith("shard 0004 added");
    assertThat(diff.lines().get(5)).startsWith("invalid: /jumpgate/other/meta");
    assertThat(diff.toText()).isEqualTo(String.join("\n", diff.lines()) + "\n");
  }

  @Test
  void the_lists_cannot_be_changed() {
    TopologyDiff diff =
        TopologyDiff.between(map().build(), map().route(route(0, B, List.of(), 2)).build());

    assertThatThrownBy(() -> diff.shardChanges().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> diff.lines().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> diff.nodeChanges().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shard_labels_are_padded_to_four_digits() {
    assertThat(TopologyDiff.shardLabel(5)).isEqualTo("0005");
    assertThat(TopologyDiff.shardLabel(65535)).isEqualTo("65535");
    assertThatThrownBy(() -> TopologyDiff.shardLabel(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }

  @Test
  void snapshots_are_required() {
    TopologySnapshot snapshot = map().build();
    assertThatThrownBy(() -> TopologyDiff.between(null, snapshot))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("before");
    assertThatThrownBy(() -> TopologyDiff.between(snapshot, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("after");
  }

  @Test
  void changes_refuse_inconsistent_values() {
    assertThatThrownBy(() -> new TopologyDiff.ShardChange(1, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TopologyDiff.ShardChange(1, route(2, A, List.of(), 0), null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TopologyDiff.NodeChange("a", null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TopologyDiff.NodeChange("a", B, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void a_diff_of_snapshots_built_by_the_reader_sees_the_leader_move() {
    TopologyState state = new TopologyState(TopologyFixtures.KEYS, 0, Clock.systemUTC());
    TopologySnapshot first =
        state.reset(
            5,
            List.of(
                TopologyFixtures.meta(2, 1),
                TopologyFixtures.node("a", "10.0.0.1", 6379, 2),
                TopologyFixtures.node("b", "10.0.0.2", 6379, 2),
                TopologyFixtures.shard(0, "a", List.of("b"), 3, 3),
                TopologyFixtures.shard(1, "b", List.of(), 0, 3)));
    TopologySnapshot second =
        state.apply(6, List.of(TopologyFixtures.shard(0, "b", List.of("a"), 4, 6)));

    TopologyDiff diff = TopologyDiff.between(first, second);

    assertThat(diff.lines())
        .containsExactly("shard 0000 leader a -> b, replicas [b] -> [a] (epoch 3 -> 4)");
    assertThat(diff.toString()).contains("revision 3 -> 6").contains("shards=1");
  }
}
