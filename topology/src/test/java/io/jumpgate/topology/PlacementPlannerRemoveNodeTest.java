package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertDistinctZones;
import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.nodeId;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.spread;
import static io.jumpgate.topology.PlacementFixtures.zoneCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PlacementPlannerRemoveNodeTest {

  @Test
  void should_move_only_what_the_node_held_in_every_configuration() {
    for (int nodeCount = 2; nodeCount <= 12; nodeCount++) {
      for (int zones = 0; zones <= 4; zones++) {
        for (int replicas = 0; replicas <= 2 && replicas < nodeCount; replicas++) {
          String configuration =
              nodeCount + " nodes, " + zones + " zones, " + replicas + " replicas";
          Map<String, Node> nodes = nodes(nodeCount, zones);
          Map<Integer, ShardAssignment> map =
              PlacementPlanner.initial(nodes, 1024, replicas).applyTo(Map.of());
          String removed = nodeId(nodeCount / 2);

          Plan plan = PlacementPlanner.removeNode(map, nodes, removed);
          Map<Integer, ShardAssignment> after = plan.applyTo(map);

          Map<String, Node> rest = new TreeMap<>(nodes);
          rest.remove(removed);
          for (Map.Entry<Integer, ShardAssignment> entry : map.entrySet()) {
            ShardAssignment before = entry.getValue();
            ShardAssignment now = after.get(entry.getKey());
            if (!before.involves(removed)) {
              assertThat(now).as("untouched shard, %s", configuration).isSameAs(before);
              continue;
            }
            assertThat(now.involves(removed)).as("%s", configuration).isFalse();
            int expectedReplicas = Math.min(replicas, rest.size() - 1);
            assertThat(now.replicas()).as("%s", configuration).hasSize(expectedReplicas);
            if (before.leader().equals(removed) && replicas > 0) {
              // A failover: a replica that holds the data is promoted.
              assertThat(before.replicas()).as("%s", configuration).contains(now.leader());
            }
          }
          assertThat(plan.summary().loadsAfter().get(removed)).isEqualTo(PlanSummary.NodeLoad.NONE);
          if (zoneCount(rest) >= replicas + 1) {
            assertDistinctZones(after, rest);
          }
          assertThat(plan.warnings().isEmpty())
              .as("warnings, %s", configuration)
              .isEqualTo(rest.size() >= replicas + 1);
          assertEpochRule(plan);
        }
      }
    }
  }

  @Test
  void should_spread_the_leaderships_of_a_removed_node_without_zones() {
    // Given: 1024 shards with two replicas on 6 nodes
    Map<String, Node> nodes = nodes(6, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 1024, 2).applyTo(Map.of());

    // When
    Plan plan = PlacementPlanner.removeNode(map, nodes, "node-03");

    // Then: the 171 leaderships of node-03 spread over the other five nodes
    Map<String, Node> rest = new TreeMap<>(nodes);
    rest.remove("node-03");
    assertThat(plan.summary().leadershipsMoved()).isEqualTo(171);
    assertThat(spread(leaderCounts(plan.applyTo(map), rest.keySet()))).isLessThanOrEqualTo(2);
  }

  @Test
  void should_promote_the_replica_with_the_fewest_leaderships() {
    // Given: shard 0 led by a, replicas b (leads 2 shards) and c (leads none)
    Map<String, Node> nodes = nodes(0, 0);
    for (String id : List.of("a", "b", "c", "d")) {
      nodes.put(id, PlacementFixtures.node(id, null));
    }
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    map.put(0, ShardAssignment.of(0, "a", List.of("b", "c"), 7));
    map.put(1, ShardAssignment.of(1, "b", List.of("c", "d"), 0));
    map.put(2, ShardAssignment.of(2, "b", List.of("c", "d"), 0));

    // When
    Plan plan = PlacementPlanner.removeNode(map, nodes, "a");

    // Then: c leads, d fills the freed slot, the epoch goes up by one
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.steps().get(0).after())
        .isEqualTo(ShardAssignment.of(0, "c", List.of("b", "d"), 8));
  }

  @Test
  void should_remove_a_node_that_the_node_table_no_longer_lists() {
    // Given: node-02 was deleted from the node table but shards still reference it
    Map<String, Node> nodes = nodes(4, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 64, 1).applyTo(Map.of());
    Map<String, Node> without = new TreeMap<>(nodes);
    without.remove("node-02");

    // When
    Plan plan = PlacementPlanner.removeNode(map, without, "node-02");

    // Then
    assertThat(plan.applyTo(map).values()).noneMatch(a -> a.involves("node-02"));
  }

  @Test
  void should_keep_fewer_replicas_with_a_warning_when_no_node_is_free() {
    // Given: 2 nodes, 1 replica
    Map<String, Node> nodes = nodes(2, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 4, 1).applyTo(Map.of());

    // When
    Plan plan = PlacementPlanner.removeNode(map, nodes, "node-00");

    // Then
    assertThat(plan.applyTo(map).values())
        .allSatisfy(
            a -> {
              assertThat(a.leader()).isEqualTo("node-01");
              assertThat(a.replicas()).isEmpty();
            });
    assertThat(plan.warnings())
        .containsExactly(
            "4 shard(s) keep one replica less, because no other node can take one: 0, 1, 2, 3");
  }

  @Test
  void should_fail_for_an_unknown_node_or_the_last_node() {
    Map<String, Node> nodes = nodes(1, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 4, 0).applyTo(Map.of());

    assertThatThrownBy(() -> PlacementPlanner.removeNode(map, nodes, "node-07"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("node-07");
    assertThatThrownBy(() -> PlacementPlanner.removeNode(map, nodes, "node-00"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("no other node");
  }

  @Test
  void should_fail_when_the_map_references_a_node_missing_from_the_node_table() {
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map =
        Map.of(5, ShardAssignment.of(5, "node-00", List.of("ghost"), 0));

    assertThatThrownBy(() -> PlacementPlanner.removeNode(map, nodes, "node-01"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("ghost")
        .satisfies(
            error -> {
              assertThat(((PlacementException) error).shard()).hasValue(5);
              assertThat(((PlacementException) error).nodeId()).contains("ghost");
            });
  }
}
