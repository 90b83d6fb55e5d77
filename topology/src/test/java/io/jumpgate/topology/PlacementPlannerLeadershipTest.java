package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.node;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** moveLeader, failoverShard and failoverNode. */
class PlacementPlannerLeadershipTest {

  private static final Map<String, Node> NODES =
      Map.of(
          "a", node("a", "az1"),
          "b", node("b", "az2"),
          "c", node("c", "az3"),
          "d", node("d", "az1"),
          "e", node("e", "az2"));

  @Test
  void should_swap_roles_when_the_new_leader_is_a_replica() {
    // Given
    Map<Integer, ShardAssignment> map =
        Map.of(17, ShardAssignment.of(17, "a", List.of("b", "c"), 4));

    // When
    Plan plan = PlacementPlanner.moveLeader(map, NODES, 17, "c");

    // Then: c leads, a takes c's replica slot, no data moves
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.steps().get(0).after())
        .isEqualTo(ShardAssignment.of(17, "c", List.of("b", "a"), 5));
    assertThat(plan.summary().nodesJoining()).isZero();
    assertThat(plan.steps().get(0).describe())
        .isEqualTo("shard 0017: leader a -> c (epoch 4 -> 5), replicas [b, c] -> [b, a]");
  }

  @Test
  void should_replace_the_leader_and_keep_the_replicas_when_the_new_leader_is_not_a_replica() {
    // Given
    Map<Integer, ShardAssignment> map = Map.of(17, ShardAssignment.of(17, "a", List.of("b"), 4));

    // When
    Plan plan = PlacementPlanner.moveLeader(map, NODES, 17, "c");

    // Then
    assertThat(plan.steps().get(0).describe())
        .isEqualTo("shard 0017: leader a -> c (epoch 4 -> 5), replicas [b] -> [b]");
    assertThat(plan.summary().nodesJoining()).isEqualTo(1);
  }

  @Test
  void should_keep_the_old_leader_in_a_same_zone_replica_slot_when_zones_require_it() {
    // Given: leader b (az2), replicas a (az1) and c (az3)
    Map<Integer, ShardAssignment> map = Map.of(3, ShardAssignment.of(3, "b", List.of("a", "c"), 0));

    // When: d (az1) becomes the leader
    Plan plan = PlacementPlanner.moveLeader(map, NODES, 3, "d");

    // Then: b takes a's slot, so the shard keeps one node per zone
    assertThat(plan.steps().get(0).after())
        .isEqualTo(ShardAssignment.of(3, "d", List.of("b", "c"), 1));
    assertThat(plan.warnings()).isEmpty();
  }

  @Test
  void should_plan_nothing_when_the_node_already_leads_the_shard() {
    Map<Integer, ShardAssignment> map = Map.of(3, ShardAssignment.of(3, "b", List.of("a"), 0));

    assertThat(PlacementPlanner.moveLeader(map, NODES, 3, "b").changesNothing()).isTrue();
  }

  @Test
  void should_reject_moving_an_unassigned_shard_or_to_an_unknown_node() {
    Map<Integer, ShardAssignment> map = Map.of(3, ShardAssignment.of(3, "b", List.of("a"), 0));

    assertThatThrownBy(() -> PlacementPlanner.moveLeader(map, NODES, 4, "a"))
        .isInstanceOf(PlacementException.class)
        .hasMessage("shard 4 is unassigned");
    assertThatThrownBy(() -> PlacementPlanner.moveLeader(map, NODES, 3, "z"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("'z'");
    assertThatThrownBy(() -> PlacementPlanner.moveLeader(map, NODES, -1, "a"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void should_fail_over_to_the_replica_with_the_fewest_leaderships_and_refill_the_shard() {
    // Given: b leads two shards, c none
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    map.put(0, ShardAssignment.of(0, "a", List.of("b", "c"), 9));
    map.put(1, ShardAssignment.of(1, "b", List.of("d", "c"), 2));
    map.put(2, ShardAssignment.of(2, "b", List.of("d", "c"), 2));

    // When
    Plan plan = PlacementPlanner.failoverShard(map, NODES, 0, null);

    // Then: c is promoted, a is dropped, d (az1, like the dead a) refills the shard
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.steps().get(0).after())
        .isEqualTo(ShardAssignment.of(0, "c", List.of("b", "d"), 10));
    assertEpochRule(plan);
  }

  @Test
  void should_fail_over_to_the_named_replica() {
    Map<Integer, ShardAssignment> map = Map.of(0, ShardAssignment.of(0, "a", List.of("b", "c"), 9));

    Plan plan = PlacementPlanner.failoverShard(map, NODES, 0, "b");

    assertThat(plan.steps().get(0).after().leader()).isEqualTo("b");
    assertThat(plan.steps().get(0).after().replicas()).containsExactly("c", "d");
    assertThat(plan.steps().get(0).after().epoch()).isEqualTo(10);
  }

  @Test
  void should_fail_over_when_the_dead_leader_is_no_longer_in_the_node_table() {
    Map<String, Node> nodes = new TreeMap<>(NODES);
    nodes.remove("a");
    Map<Integer, ShardAssignment> map = Map.of(0, ShardAssignment.of(0, "a", List.of("b", "c"), 9));

    Plan plan = PlacementPlanner.failoverShard(map, nodes, 0, null);

    assertThat(plan.steps().get(0).after().involves("a")).isFalse();
    assertThat(plan.steps().get(0).after().replicas()).hasSize(2);
  }

  @Test
  void should_run_with_fewer_replicas_when_no_node_is_free() {
    Map<String, Node> nodes = nodes(2, 0);
    Map<Integer, ShardAssignment> map =
        Map.of(0, ShardAssignment.of(0, "node-00", List.of("node-01"), 0));

    Plan plan = PlacementPlanner.failoverShard(map, nodes, 0, null);

    assertThat(plan.steps().get(0).after())
        .isEqualTo(ShardAssignment.of(0, "node-01", List.of(), 1));
    assertThat(plan.warnings()).hasSize(1);
  }

  @Test
  void should_refuse_to_fail_over_a_shard_without_replica_or_to_a_non_replica() {
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    map.put(0, ShardAssignment.of(0, "a", List.of(), 0));
    map.put(1, ShardAssignment.of(1, "a", List.of("b"), 0));

    assertThatThrownBy(() -> PlacementPlanner.failoverShard(map, NODES, 0, null))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("shard 0 has no replica to promote");
    assertThatThrownBy(() -> PlacementPlanner.failoverShard(map, NODES, 1, "c"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("node 'c' is not a replica of shard 1");
    assertThatThrownBy(() -> PlacementPlanner.failoverShard(map, NODES, 2, null))
        .isInstanceOf(PlacementException.class)
        .hasMessage("shard 2 is unassigned");
  }

  @Test
  void should_fail_over_every_shard_a_node_leads_and_nothing_else() {
    // Given
    Map<String, Node> nodes = nodes(6, 3);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 1024, 2).applyTo(Map.of());

    // When
    Plan plan = PlacementPlanner.failoverNode(map, nodes, "node-02");
    Map<Integer, ShardAssignment> after = plan.applyTo(map);

    // Then
    assertThat(plan.steps()).hasSize(plan.summary().loadsBefore().get("node-02").leaders());
    for (PlanStep step : plan.steps()) {
      assertThat(step.before().leader()).isEqualTo("node-02");
      assertThat(step.before().replicas()).contains(step.after().leader());
      assertThat(step.after().involves("node-02")).isFalse();
      assertThat(step.after().replicas()).hasSize(2);
    }
    assertThat(after.values()).noneMatch(a -> a.leader().equals("node-02"));
    assertThat(after.values()).anyMatch(a -> a.replicas().contains("node-02"));
    PlacementFixtures.assertDistinctZones(after, nodes);
    assertEpochRule(plan);
  }

  @Test
  void should_refuse_to_fail_over_a_node_that_leads_a_shard_without_replica() {
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    map.put(0, ShardAssignment.of(0, "a", List.of("b"), 0));
    map.put(7, ShardAssignment.of(7, "a", List.of(), 0));

    assertThatThrownBy(() -> PlacementPlanner.failoverNode(map, NODES, "a"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("1 shard(s) without a replica")
        .satisfies(error -> assertThat(((PlacementException) error).shard()).hasValue(7));
  }
}
