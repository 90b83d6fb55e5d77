package io.jumpgate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologySnapshotTest {

  private static final Instant LOADED = Instant.parse("2026-11-24T00:00:00Z");

  private final Node a = Node.of("a", "127.0.0.1", 7001);
  private final Node b = Node.of("b", "127.0.0.1", 7002);
  private final Map<String, Node> nodes = Map.of("a", a, "b", b);

  private ShardRoute[] routes(int shards, int frozenShard, String migrationId) {
    ShardRoute[] routes = new ShardRoute[shards];
    for (int shard = 0; shard < shards; shard++) {
      routes[shard] =
          shard == frozenShard
              ? ShardRoute.of(
                  shard, a, List.of(), 1, ShardState.FROZEN, new ShardMigration(migrationId, b), 5)
              : ShardRoute.of(shard, a, List.of(b), 1, ShardState.ACTIVE, 5);
    }
    return routes;
  }

  private TopologySnapshot snapshot(ShardRoute[] routes, MigrationLock lock) {
    return TopologySnapshot.create(
        "c1", 9, TopologyMetadata.of(routes.length), nodes, routes, List.of(), LOADED, lock);
  }

  @Test
  void should_hold_a_frozen_shard_only_under_a_lock_naming_its_migration() {
    ShardRoute[] routes = routes(130, 129, "m1");

    TopologySnapshot locked = snapshot(routes, new MigrationLock("m1", "h:1", "now", 3));
    assertThat(locked.isHeld(129)).isTrue();
    assertThat(locked.isHeld(128)).isFalse();
    assertThat(locked.isHeld(65)).isFalse();
    assertThat(locked.hasHeldShards()).isTrue();
    assertThat(locked.heldShardCount()).isEqualTo(1);

    TopologySnapshot otherLock = snapshot(routes, new MigrationLock("m2", "h:1", "now", 3));
    assertThat(otherLock.isHeld(129)).isFalse();
    assertThat(otherLock.hasHeldShards()).isFalse();

    TopologySnapshot noLock = snapshot(routes, null);
    assertThat(noLock.isHeld(129)).isFalse();
    assertThat(noLock.heldShardCount()).isZero();
    assertThat(noLock.migrationLock()).isEmpty();
  }

  @Test
  void should_copy_its_inputs_and_sort_the_nodes() {
    ShardRoute[] routes = routes(2, -1, "m1");
    Map<String, Node> table = new LinkedHashMap<>();
    table.put("b", b);
    table.put("a", a);
    TopologySnapshot snapshot =
        TopologySnapshot.create("c1", 0, TopologyMetadata.of(2), table, routes, List.of(), LOADED);
    routes[0] = ShardRoute.unavailable(0, "changed after");
    table.clear();

    assertThat(snapshot.route(0).isAvailable()).isTrue();
    assertThat(snapshot.nodes().keySet()).containsExactly("a", "b");
    assertThat(snapshot.node("b")).contains(b);
    assertThat(snapshot.node("x")).isEmpty();
    assertThat(snapshot.shardCount()).isEqualTo(2);
    assertThat(snapshot.routes()).hasSize(2);
  }

  @Test
  void should_build_the_next_snapshot_from_its_own_routes_and_share_an_unchanged_node_table() {
    ShardRoute[] routes = routes(3, -1, "m1");
    TopologySnapshot first = snapshot(routes, null);
    routes[1] = ShardRoute.of(1, b, List.of(a), 2, ShardState.ACTIVE, 10);

    TopologySnapshot second = first.next(10, first.nodes(), routes, List.of(), LOADED, null);
    routes[2] = ShardRoute.unavailable(2, "changed after");

    assertThat(second.revision()).isEqualTo(10);
    assertThat(second.cluster()).isEqualTo("c1");
    assertThat(second.metadata()).isEqualTo(first.metadata());
    assertThat(second.route(1).leader()).isEqualTo(b);
    assertThat(second.route(2).isAvailable()).isTrue();
    assertThat(first.route(1).leader()).isEqualTo(a);
    assertThat(second.nodes()).isSameAs(first.nodes());

    Map<String, Node> onlyA = new LinkedHashMap<>();
    onlyA.put("a", a);
    TopologySnapshot third = second.next(11, onlyA, routes(3, -1, "m1"), List.of(), LOADED, null);
    onlyA.clear();
    assertThat(third.nodes().keySet()).containsExactly("a");
  }

  @Test
  void should_refuse_a_next_snapshot_whose_changed_routes_do_not_match_the_shards() {
    TopologySnapshot first = snapshot(routes(2, -1, "m1"), null);

    assertThatThrownBy(
            () -> first.next(10, first.nodes(), routes(3, -1, "m1"), List.of(), LOADED, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected 2 routes (one per shard), got 3");
    ShardRoute[] swapped = first.routes().toArray(ShardRoute[]::new);
    swapped[1] = swapped[0];
    assertThatThrownBy(() -> first.next(10, first.nodes(), swapped, List.of(), LOADED, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("route at index 1 is for shard 0");
    ShardRoute[] missing = first.routes().toArray(ShardRoute[]::new);
    missing[0] = null;
    assertThatThrownBy(() -> first.next(10, first.nodes(), missing, List.of(), LOADED, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("route of shard 0");
    assertThatThrownBy(
            () ->
                first.next(
                    10,
                    Map.of("x", a),
                    first.routes().toArray(ShardRoute[]::new),
                    List.of(),
                    LOADED,
                    null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node table key 'x' holds node 'a'");
    assertThatThrownBy(
            () ->
                first.next(
                    -1,
                    first.nodes(),
                    first.routes().toArray(ShardRoute[]::new),
                    List.of(),
                    LOADED,
                    null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("revision must be at least 0, was -1");
  }

  @Test
  void should_count_unavailable_shards() {
    ShardRoute[] routes = routes(3, -1, "m1");
    routes[1] = ShardRoute.unavailable(1, "no leader");

    assertThat(snapshot(routes, null).unavailableShardCount()).isEqualTo(1);
  }

  @Test
  void should_refuse_routes_that_do_not_match_the_shards_naming_what_is_wrong() {
    assertThatThrownBy(
            () ->
                TopologySnapshot.create(
                    "c1", 1, TopologyMetadata.of(4), nodes, routes(3, -1, "m1"), List.of(), LOADED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected 4 routes (one per shard), got 3");

    ShardRoute[] swapped = routes(2, -1, "m1");
    ShardRoute first = swapped[0];
    swapped[0] = swapped[1];
    swapped[1] = first;
    assertThatThrownBy(() -> snapshot(swapped, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("route at index 0 is for shard 1");

    ShardRoute[] missing = routes(2, -1, "m1");
    missing[1] = null;
    assertThatThrownBy(() -> snapshot(missing, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("route of shard 1");
  }

  @Test
  void should_refuse_a_negative_revision_and_a_misfiled_node() {
    assertThatThrownBy(
            () ->
                TopologySnapshot.create(
                    "c1",
                    -1,
                    TopologyMetadata.of(1),
                    nodes,
                    routes(1, -1, "m1"),
                    List.of(),
                    LOADED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("revision must be at least 0, was -1");
    assertThatThrownBy(
            () ->
                TopologySnapshot.create(
                    "c1",
                    1,
                    TopologyMetadata.of(1),
                    Map.of("x", a),
                    routes(1, -1, "m1"),
                    List.of(),
                    LOADED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node table key 'x' holds node 'a'");
  }
}
