package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertDistinctZones;
import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.node;
import static io.jumpgate.topology.PlacementFixtures.nodeId;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.replicaCounts;
import static io.jumpgate.topology.PlacementFixtures.spread;
import static io.jumpgate.topology.PlacementFixtures.with;
import static io.jumpgate.topology.PlacementFixtures.zoneCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlacementPlannerAddNodeTest {

  @Test
  void should_move_exactly_the_minimum_of_256_leaderships_from_3_to_4_nodes() {
    // Given: 1024 shards with one replica on 3 nodes
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 1024, 1).applyTo(Map.of());
    Map<String, Node> four = with(nodes, node("node-03", null));

    // When
    Plan plan = PlacementPlanner.addNode(map, four, "node-03");
    Map<Integer, ShardAssignment> after = plan.applyTo(map);

    // Then: floor(1024 / 4) = 256 leaderships move, all onto node-03
    assertThat(plan.summary().leadershipsMoved()).isEqualTo(256);
    assertThat(leaderCounts(after, four.keySet()).values()).containsOnly(256);
    assertThat(spread(replicaCounts(after, four.keySet()))).isLessThanOrEqualTo(1);
    assertThat(plan.summary().loadsAfter().get("node-03"))
        .isEqualTo(new PlanSummary.NodeLoad(256, 256));
    assertThat(plan.warnings()).isEmpty();
    assertEpochRule(plan);
  }

  @Test
  void should_move_the_minimum_onto_the_new_node_only_in_every_configuration() {
    for (int nodeCount : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100}) {
      for (int zones = 0; zones <= 4; zones++) {
        for (int replicas = 0; replicas <= 2 && replicas < nodeCount; replicas++) {
          String configuration =
              nodeCount + " nodes, " + zones + " zones, " + replicas + " replicas";
          Map<String, Node> nodes = nodes(nodeCount, zones);
          Map<Integer, ShardAssignment> map =
              PlacementPlanner.initial(nodes, 1024, replicas).applyTo(Map.of());
          String newNode = nodeId(nodeCount);
          Map<String, Node> more =
              with(nodes, node(newNode, zones == 0 ? null : "az" + nodeCount % zones));

          Plan plan = PlacementPlanner.addNode(map, more, newNode);
          Map<Integer, ShardAssignment> after = plan.applyTo(map);

          int minimum = 1024 / (nodeCount + 1);
          assertThat(plan.summary().leadershipsMoved())
              .as("leaderships moved, %s", configuration)
              .isEqualTo(minimum)
              .isLessThanOrEqualTo((int) (1.1 * minimum));
          assertThat(spread(leaderCounts(after, more.keySet())))
              .as("leader spread, %s", configuration)
              .isLessThanOrEqualTo(1);
          assertOnlyTheNewNodeGains(plan, newNode, configuration);
          assertThat(after.values()).extracting(a -> a.replicas().size()).containsOnly(replicas);
          if (zoneCount(more) >= replicas + 1) {
            assertDistinctZones(after, more);
          }
          if (zones <= 1) {
            assertThat(spread(replicaCounts(after, more.keySet())))
                .as("replica spread, %s", configuration)
                .isLessThanOrEqualTo(1);
          }
          assertThat(plan.warnings()).as("warnings, %s", configuration).isEmpty();
          assertEpochRule(plan);
        }
      }
    }
  }

  @Test
  void should_take_leaderships_from_the_most_loaded_nodes_first() {
    // Given: node-00 leads 6 shards, node-01 leads 2
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = new java.util.TreeMap<>();
    for (int shard = 0; shard < 8; shard++) {
      map.put(shard, ShardAssignment.of(shard, shard < 6 ? "node-00" : "node-01", List.of(), 3));
    }

    // When: node-02 is added
    Plan plan = PlacementPlanner.addNode(map, nodes, "node-02");

    // Then: it takes node-00's leaderships until no other node leads two more than it
    assertThat(plan.steps())
        .allSatisfy(step -> assertThat(step.before().leader()).isEqualTo("node-00"));
    assertThat(leaderCounts(plan.applyTo(map), nodes.keySet()))
        .containsExactlyInAnyOrderEntriesOf(Map.of("node-00", 3, "node-01", 2, "node-02", 3));
  }

  @Test
  void should_let_the_old_leader_take_a_same_zone_replica_slot_when_a_plain_replace_breaks_zones() {
    // Given: one shard led by b (az2) with replicas a (az1) and c (az3); d joins az1
    Map<String, Node> nodes =
        Map.of(
            "a", node("a", "az1"),
            "b", node("b", "az2"),
            "c", node("c", "az3"),
            "d", node("d", "az1"));
    Map<Integer, ShardAssignment> map =
        Map.of(
            0,
            ShardAssignment.of(0, "b", List.of("a", "c"), 4),
            1,
            ShardAssignment.of(1, "b", List.of("a", "c"), 4));

    // When
    Plan plan = PlacementPlanner.addNode(map, nodes, "d");

    // Then: d leads, b keeps the data as a replica in a's slot, the zones stay distinct
    assertThat(plan.steps()).hasSize(1);
    assertThat(plan.steps().get(0).after())
        .isEqualTo(ShardAssignment.of(0, "d", List.of("b", "c"), 5));
  }

  @Test
  void should_fail_when_the_new_node_is_not_in_the_node_table() {
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 16, 1).applyTo(Map.of());

    assertThatThrownBy(() -> PlacementPlanner.addNode(map, nodes, "node-09"))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("node-09")
        .satisfies(error -> assertThat(((PlacementException) error).nodeId()).contains("node-09"));
  }

  private static void assertOnlyTheNewNodeGains(Plan plan, String newNode, String configuration) {
    for (PlanStep step : plan.steps()) {
      if (step.leaderChanged()) {
        assertThat(step.after().leader()).as("new leader, %s", configuration).isEqualTo(newNode);
      }
      // A replica slot goes to the new node, or to the old leader that keeps the shard's data.
      assertThat(step.replicasAdded())
          .as("replicas added to shard %d, %s", step.shard(), configuration)
          .isSubsetOf(Set.of(newNode, step.before().leader()));
    }
    plan.summary()
        .loadsBefore()
        .forEach(
            (nodeId, before) -> {
              if (!nodeId.equals(newNode)) {
                assertThat(plan.summary().loadsAfter().get(nodeId).leaders())
                    .isLessThanOrEqualTo(before.leaders());
              }
            });
  }
}
