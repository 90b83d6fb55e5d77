package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.node;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.spread;
import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.TopologyAdminPlan.KeyCheck;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import io.jumpgate.topology.internal.KeyChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The admin's plans, computed from a state without etcd. */
class TopologyAdminPlanTest {

  private static final TopologyAdminOptions OPTIONS = TopologyAdminOptions.defaults();

  /** A state as the admin would read it: every key written at revision 10 + its index. */
  private static TopologyAdminState state(
      Map<String, Node> nodes, Map<Integer, ShardAssignment> map, int shards) {
    List<KeyChange> listing = new ArrayList<>();
    long revision = 10;
    listing.add(
        KeyChange.put(
            KEYS.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(shards)), revision++));
    for (Node node : new TreeMap<>(nodes).values()) {
      listing.add(KeyChange.put(KEYS.node(node.id()), TopologyCodec.encodeNode(node), revision++));
    }
    for (ShardAssignment assignment : new TreeMap<>(map).values()) {
      listing.add(
          KeyChange.put(
              KEYS.shard(assignment.shard()),
              TopologyCodec.encodeAssignment(assignment),
              revision++));
    }
    return TopologyAdminState.decode(KEYS, revision, listing);
  }

  private static TopologyAdminState initialState(int nodeCount, int shards, int replicas) {
    Map<String, Node> nodes = nodes(nodeCount, 0);
    return state(
        nodes, PlacementPlanner.initial(nodes, shards, replicas).applyTo(Map.of()), shards);
  }

  private static ShardAssignment decoded(int shard, KeyWrite write) {
    return TopologyCodec.decodeAssignment(shard, write.value().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void init_plan_should_write_every_node_then_every_shard_all_expected_absent() {
    // Given
    Map<String, Node> nodes = nodes(3, 0);
    Plan placement = PlacementPlanner.initial(nodes, 1024, 1);

    // When
    TopologyAdminPlan plan = TopologyAdmin.initPlan(KEYS, 5, nodes, 1024, placement, OPTIONS);

    // Then
    assertThat(plan.initialises()).isTrue();
    assertThat(plan.metadata()).isEqualTo(TopologyMetadata.of(1024));
    assertThat(plan.writes()).hasSize(1027);
    assertThat(plan.writes().subList(0, 3))
        .extracting(KeyWrite::key)
        .containsExactly(KEYS.node("node-00"), KEYS.node("node-01"), KEYS.node("node-02"));
    assertThat(plan.writes().get(3).key()).isEqualTo("/jumpgate/test/shards/0000");
    assertThat(plan.writes().get(1026).key()).isEqualTo("/jumpgate/test/shards/1023");
    assertThat(plan.writes()).allSatisfy(write -> assertThat(write.expectedModRevision()).isZero());
    assertThat(plan.transactions()).isEqualTo(12);
    assertThat(plan.nodeChanges()).extracting(NodeChange::nodeId).hasSize(3);
    assertThat(plan.describe().get(0))
        .isEqualTo("cluster 'test', not initialised (etcd at revision 5)");
    assertThat(plan.readRevision()).isEqualTo(5);
    assertThat(plan.mapRevision()).isZero();
    assertThat(plan.keysToWrite()).isEqualTo(1028);
    assertThat(plan.describe())
        .contains(
            "1028 key(s) to write in 12 transactions (readers see the cluster only once the last"
                + " one writes meta)");
    assertThat(plan.describe())
        .contains(
            "write meta: format 1, 1024 shards, routing xxh64-jump (last: the cluster appears whole"
                + " at that revision)");
  }

  @Test
  void plan_should_report_the_map_revision_not_etcds_when_other_keys_were_written_since() {
    // Given a map whose last change is at revision 17, then a client registration and the
    // migration lock written at 30 and 31 (etcd's revision 32 when read)
    Map<String, Node> nodes = nodes(3, 0);
    List<KeyChange> listing = new ArrayList<>();
    listing.add(
        KeyChange.put(KEYS.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(4)), 10));
    long revision = 11;
    for (Node node : nodes.values()) {
      listing.add(KeyChange.put(KEYS.node(node.id()), TopologyCodec.encodeNode(node), revision++));
    }
    for (ShardAssignment assignment :
        new TreeMap<>(PlacementPlanner.initial(nodes, 4, 1).applyTo(Map.of())).values()) {
      listing.add(
          KeyChange.put(
              KEYS.shard(assignment.shard()),
              TopologyCodec.encodeAssignment(assignment),
              revision++));
    }
    long lastMapChange = revision - 1;
    listing.add(
        KeyChange.put(
            KEYS.root() + "/clients/app-1",
            "{\"host\":\"a\",\"pid\":1,\"revision\":17}".getBytes(StandardCharsets.UTF_8),
            30));
    listing.add(
        KeyChange.put(
            KEYS.root() + "/migration-lock",
            "{\"id\":\"m1\"}".getBytes(StandardCharsets.UTF_8),
            31));
    TopologyAdminState state = TopologyAdminState.decode(KEYS, 32, listing);

    // When
    TopologyAdminPlan plan =
        TopologyAdmin.addNodePlan(KEYS, state, node("node-03", "az1"), OPTIONS);

    // Then
    assertThat(lastMapChange).isEqualTo(17);
    assertThat(state.revision()).isEqualTo(32);
    assertThat(state.mapRevision()).isEqualTo(lastMapChange);
    assertThat(plan.readRevision()).isEqualTo(32);
    assertThat(plan.mapRevision()).isEqualTo(lastMapChange);
    assertThat(plan.describe().get(0)).isEqualTo("cluster 'test', read at revision 17");
  }

  @Test
  void should_write_only_the_node_entry_when_an_entry_plan_adds_a_node() {
    // Given 3 nodes leading 768 shards
    TopologyAdminState state = initialState(3, 768, 1);
    Node added = node("node-03", null);

    // When
    TopologyAdminPlan plan = TopologyAdmin.addNodeEntryPlan(KEYS, state, added, OPTIONS);

    // Then: one write, the node entry, compared absent; no shard changes
    assertThat(plan.plan().steps()).isEmpty();
    assertThat(plan.nodeChanges()).containsExactly(new NodeChange("node-03", added));
    assertThat(plan.writes())
        .containsExactly(
            new KeyWrite(
                KEYS.node("node-03"),
                new String(TopologyCodec.encodeNode(added), StandardCharsets.UTF_8),
                0));
    assertThat(plan.plan().summary().loadsAfter()).containsKey("node-03");
    assertThat(plan.changesNothing()).isFalse();
  }

  @Test
  void should_change_nothing_when_an_entry_plan_finds_the_same_node() {
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 64, 1).applyTo(Map.of());
    Map<String, Node> four = new TreeMap<>(nodes);
    four.put("node-03", node("node-03", null));
    TopologyAdminState state = state(four, map, 64);

    TopologyAdminPlan plan =
        TopologyAdmin.addNodeEntryPlan(KEYS, state, node("node-03", null), OPTIONS);

    assertThat(plan.changesNothing()).isTrue();
    assertThat(plan.writes()).isEmpty();
  }

  @Test
  void add_node_should_write_the_node_first_and_move_a_quarter_of_the_leaderships() {
    // Given: 1024 shards, one replica, on 3 nodes
    TopologyAdminState state = initialState(3, 1024, 1);
    Node added = node("node-03", null);

    // When
    TopologyAdminPlan plan = TopologyAdmin.addNodePlan(KEYS, state, added, OPTIONS);

    // Then: the node entry comes first and must not exist
    assertThat(plan.nodeChanges()).containsExactly(new NodeChange("node-03", added));
    assertThat(plan.writes().get(0))
        .isEqualTo(
            new KeyWrite(
                KEYS.node("node-03"),
                new String(TopologyCodec.encodeNode(added), StandardCharsets.UTF_8),
                0));
    // And: 256 leaderships move, each shard write compares the revision it was read at
    assertThat(plan.plan().summary().leadershipsMoved()).isEqualTo(256);
    assertEpochRule(plan.plan());
    for (PlanStep step : plan.plan().steps()) {
      KeyWrite write =
          plan.writes().stream()
              .filter(w -> w.key().equals(KEYS.shard(step.shard())))
              .findFirst()
              .orElseThrow();
      assertThat(write.expectedModRevision()).isEqualTo(state.modRevision(write.key()));
      assertThat(decoded(step.shard(), write)).isEqualTo(step.after());
      if (step.leaderChanged()) {
        assertThat(step.after().epoch()).isEqualTo(step.before().epoch() + 1);
      }
    }
    assertThat(plan.writes()).hasSize(plan.plan().steps().size() + 1);
    assertThat(plan.transactions()).isEqualTo((plan.writes().size() + 99) / 100).isGreaterThan(1);
    assertThat(plan.readRevision()).isEqualTo(state.revision());
    Map<Integer, ShardAssignment> after = plan.plan().applyTo(state.assignments());
    Map<String, Node> four = new TreeMap<>(state.nodes());
    four.put("node-03", added);
    assertThat(spread(leaderCounts(after, four.keySet()))).isLessThanOrEqualTo(1);
    assertThat(plan.describe().get(plan.describe().size() - 1))
        .contains("transactions (each atomic and compare-and-set");
  }

  @Test
  void should_check_every_node_a_written_shard_names_that_the_plan_does_not_write() {
    // Given
    TopologyAdminState state = initialState(3, 64, 1);

    // When
    TopologyAdminPlan plan = TopologyAdmin.addNodePlan(KEYS, state, node("node-03", null), OPTIONS);

    // Then: the three old nodes are compared at the revision read; the new one is written
    assertThat(plan.checks())
        .containsExactly(
            new KeyCheck(KEYS.node("node-00"), state.modRevision(KEYS.node("node-00"))),
            new KeyCheck(KEYS.node("node-01"), state.modRevision(KEYS.node("node-01"))),
            new KeyCheck(KEYS.node("node-02"), state.modRevision(KEYS.node("node-02"))));
    // And: each transaction compares the nodes its shards name, never more than the limit
    List<TopologyAdminWrites.Batch> batches =
        TopologyAdminWrites.batches(KEYS, plan.writes(), plan.checks(), 5, 1 << 20);
    for (TopologyAdminWrites.Batch batch : batches) {
      assertThat(batch.compares()).isLessThanOrEqualTo(5);
      for (KeyWrite write : batch.writes()) {
        for (String named : TopologyAdminWrites.namedNodeKeys(KEYS, write)) {
          if (!named.equals(KEYS.node("node-03"))) {
            assertThat(batch.checks()).extracting(KeyCheck::key).contains(named);
          }
        }
      }
    }
    List<KeyWrite> flattened = new ArrayList<>();
    batches.forEach(batch -> flattened.addAll(batch.writes()));
    assertThat(flattened).isEqualTo(plan.writes());
  }

  @Test
  void add_node_of_a_node_already_there_should_only_finish_the_moves() {
    // Given: node-03 was added, but no shard moved yet (an interrupted add-node)
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 64, 1).applyTo(Map.of());
    Map<String, Node> four = new TreeMap<>(nodes);
    four.put("node-03", node("node-03", null));
    TopologyAdminState state = state(four, map, 64);

    // When
    TopologyAdminPlan plan = TopologyAdmin.addNodePlan(KEYS, state, node("node-03", null), OPTIONS);

    // Then
    assertThat(plan.nodeChanges()).isEmpty();
    assertThat(plan.plan().summary().leadershipsMoved()).isEqualTo(16);
    assertThat(plan.writes()).noneMatch(write -> write.key().startsWith(KEYS.nodesPrefix()));

    // And: the same id at another address is refused
    Node elsewhere = new Node("node-03", "10.9.9.9", 6379, null, Map.of(), false);
    assertThatThrownBy(() -> TopologyAdmin.addNodePlan(KEYS, state, elsewhere, OPTIONS))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("already in the node table, at 10.0.0.1:6379");
  }

  @Test
  void remove_node_should_rewrite_every_shard_naming_it_then_delete_its_entry_last() {
    // Given
    TopologyAdminState state = initialState(4, 256, 1);

    // When
    TopologyAdminPlan plan = TopologyAdmin.removeNodePlan(KEYS, state, "node-02", OPTIONS);

    // Then
    KeyWrite last = plan.writes().get(plan.writes().size() - 1);
    assertThat(last.deletes()).isTrue();
    assertThat(last.key()).isEqualTo(KEYS.node("node-02"));
    assertThat(last.expectedModRevision()).isEqualTo(state.modRevision(KEYS.node("node-02")));
    assertThat(plan.nodeChanges()).containsExactly(new NodeChange("node-02", null));
    Map<Integer, ShardAssignment> after = plan.plan().applyTo(state.assignments());
    assertThat(after.values()).noneMatch(assignment -> assignment.involves("node-02"));
    assertEpochRule(plan.plan());
    assertThat(plan.describe()).contains("remove node node-02");
  }

  @Test
  void failover_shard_should_promote_the_replica_and_bump_the_epoch_by_one() {
    // Given
    TopologyAdminState state = initialState(3, 16, 1);
    ShardAssignment before = state.assignments().get(5);

    // When
    TopologyAdminPlan plan =
        TopologyAdmin.failoverShardPlan(KEYS, state, 5, before.replicas().get(0), OPTIONS);

    // Then
    assertThat(plan.writes()).hasSize(1);
    ShardAssignment after = decoded(5, plan.writes().get(0));
    assertThat(after.leader()).isEqualTo(before.replicas().get(0));
    assertThat(after.epoch()).isEqualTo(before.epoch() + 1);
    assertThat(after.involves(before.leader())).isFalse();
    assertThat(plan.transactions()).isEqualTo(1);

    // And: a shard out of range is named
    assertThatThrownBy(() -> TopologyAdmin.failoverShardPlan(KEYS, state, 16, null, OPTIONS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shard 16 is out of range: cluster 'test' has shards 0 to 15");
  }

  @Test
  void failover_node_to_a_node_should_require_it_to_replicate_every_shard_of_the_node() {
    // Given: 2 nodes, so node-01 replicates every shard node-00 leads
    Map<String, Node> two = nodes(2, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(two, 16, 1).applyTo(Map.of());

    // When
    Plan plan = TopologyAdmin.failoverNodeTo(map, two, "node-00", "node-01");

    // Then
    assertThat(plan.summary().leadershipsMoved()).isEqualTo(8);
    assertThat(plan.applyTo(map).values()).allMatch(a -> a.leader().equals("node-01"));
    assertEpochRule(plan);

    // And: with 3 nodes node-01 does not replicate all of node-00's shards
    Map<String, Node> three = nodes(3, 0);
    Map<Integer, ShardAssignment> spread = PlacementPlanner.initial(three, 30, 1).applyTo(Map.of());
    assertThatThrownBy(() -> TopologyAdmin.failoverNodeTo(spread, three, "node-00", "node-01"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("node 'node-01' is not a replica of")
        .hasMessageContaining("of the 10 shard(s) that 'node-00' leads");
  }

  @Test
  void failover_node_without_target_should_move_every_leadership_off_the_node() {
    TopologyAdminState state = initialState(3, 30, 1);
    TopologyAdminPlan plan = TopologyAdmin.failoverNodePlan(KEYS, state, "node-00", null, OPTIONS);
    Map<Integer, ShardAssignment> after = plan.plan().applyTo(state.assignments());
    assertThat(after.values()).noneMatch(a -> a.leader().equals("node-00"));
    assertThat(plan.plan().summary().leadershipsMoved()).isEqualTo(10);
  }

  @Test
  void rebalance_should_even_out_a_skewed_map() {
    // Given: every shard led by node-00
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> skewed = new TreeMap<>();
    for (int shard = 0; shard < 30; shard++) {
      skewed.put(shard, ShardAssignment.of(shard, "node-00", List.of("node-01"), 2));
    }
    TopologyAdminState state = state(nodes, skewed, 30);

    // When
    TopologyAdminPlan plan = TopologyAdmin.rebalancePlan(KEYS, state, OPTIONS);

    // Then
    assertThat(leaderCounts(plan.plan().applyTo(skewed), nodes.keySet()).values()).containsOnly(10);
    assertEpochRule(plan.plan());
  }

  @Test
  void a_plan_that_changes_nothing_writes_nothing() {
    TopologyAdminState state = initialState(3, 30, 1);
    TopologyAdminPlan plan = TopologyAdmin.rebalancePlan(KEYS, state, OPTIONS);
    assertThat(plan.changesNothing()).isTrue();
    assertThat(plan.transactions()).isZero();
    assertThat(plan.describe()).endsWith("nothing to change");
  }

  @Test
  void should_warn_about_invalid_entries_it_leaves_alone() {
    // Given: shard 3's entry is broken
    TopologyAdminState valid = initialState(3, 8, 1);
    List<KeyChange> listing = new ArrayList<>();
    valid
        .modRevisions()
        .forEach(
            (key, revision) ->
                listing.add(
                    KeyChange.put(
                        key,
                        key.equals(KEYS.meta())
                            ? TopologyCodec.encodeMetadata(valid.metadata())
                            : key.equals(KEYS.shard(3))
                                ? "{".getBytes(StandardCharsets.UTF_8)
                                : encoded(valid, key),
                        revision)));
    TopologyAdminState state = TopologyAdminState.decode(KEYS, 50, listing);

    // When
    TopologyAdminPlan plan = TopologyAdmin.addNodePlan(KEYS, state, node("node-03", null), OPTIONS);

    // Then
    assertThat(plan.plan().warnings())
        .anySatisfy(
            warning ->
                assertThat(warning)
                    .startsWith("1 invalid entry in the map")
                    .contains(KEYS.shard(3)));
  }

  private static byte[] encoded(TopologyAdminState state, String key) {
    TopologyKeys.ParsedKey parsed = KEYS.parse(key);
    return parsed.kind() == TopologyKeys.Kind.NODE
        ? TopologyCodec.encodeNode(state.nodes().get(parsed.name()))
        : TopologyCodec.encodeAssignment(state.assignments().get(parsed.shard()));
  }

  @Test
  void should_write_a_shard_at_the_key_it_was_read_from() {
    // Given: shard 2 was written by a script without padding
    Map<String, Node> nodes = nodes(2, 0);
    List<KeyChange> listing =
        List.of(
            KeyChange.put(KEYS.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(4)), 1),
            KeyChange.put(KEYS.node("node-00"), TopologyCodec.encodeNode(nodes.get("node-00")), 2),
            KeyChange.put(KEYS.node("node-01"), TopologyCodec.encodeNode(nodes.get("node-01")), 3),
            KeyChange.put(
                KEYS.shardsPrefix() + "2",
                TopologyCodec.encodeAssignment(
                    ShardAssignment.of(2, "node-00", List.of("node-01"), 0)),
                4));
    TopologyAdminState state = TopologyAdminState.decode(KEYS, 5, listing);

    // When
    TopologyAdminPlan plan = TopologyAdmin.moveShardPlan(KEYS, state, 2, "node-01", OPTIONS);

    // Then
    assertThat(plan.writes()).extracting(KeyWrite::key).containsExactly(KEYS.shardsPrefix() + "2");
    assertThat(plan.writes().get(0).expectedModRevision()).isEqualTo(4);
  }

  @Test
  void should_round_trip_through_a_generic_json_mapper() throws Exception {
    // Given
    TopologyAdminState state = initialState(3, 32, 1);
    TopologyAdminPlan plan =
        TopologyAdmin.addNodePlan(KEYS, state, node("node-03", "az1"), OPTIONS);
    ObjectMapper mapper = new ObjectMapper();

    // When
    String json = mapper.writeValueAsString(plan);

    // Then
    assertThat(mapper.readValue(json, TopologyAdminPlan.class)).isEqualTo(plan);
    assertThat(mapper.readTree(json).fieldNames())
        .toIterable()
        .containsExactly(
            "cluster",
            "readRevision",
            "mapRevision",
            "plan",
            "metadata",
            "nodeChanges",
            "writes",
            "checks",
            "transactions");
  }

  @Test
  void key_writes_should_refuse_deleting_an_absent_key() {
    assertThatThrownBy(() -> new KeyWrite(KEYS.node("x"), null, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
