package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertComplete;
import static io.jumpgate.topology.PlacementFixtures.assertDistinctZones;
import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.mostInOneZone;
import static io.jumpgate.topology.PlacementFixtures.node;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.replicaCounts;
import static io.jumpgate.topology.PlacementFixtures.spread;
import static io.jumpgate.topology.PlacementFixtures.zoneCount;
import static io.jumpgate.topology.PlacementFixtures.zoneLimit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PlacementPlannerInitialTest {

  @Test
  void should_balance_leaders_and_replicas_of_1024_shards_on_3_nodes() {
    // Given
    Map<String, Node> nodes = nodes(3, 0);

    // When
    Plan plan = PlacementPlanner.initial(nodes, 1024, 1);
    Map<Integer, ShardAssignment> map = plan.applyTo(Map.of());

    // Then
    assertComplete(map, nodes, 1024, 1);
    assertThat(leaderCounts(map, nodes.keySet()).values()).containsExactly(342, 341, 341);
    assertThat(spread(replicaCounts(map, nodes.keySet()))).isLessThanOrEqualTo(1);
    assertThat(plan.steps()).hasSize(1024).allSatisfy(step -> assertThat(step.before()).isNull());
    assertThat(plan.summary().leadershipsMoved()).isEqualTo(1024);
    assertThat(plan.summary().replicasMoved()).isEqualTo(1024);
    assertThat(plan.warnings()).isEmpty();
    assertEpochRule(plan);
  }

  @Test
  void should_put_the_nodes_of_a_shard_in_distinct_zones_when_there_are_enough_zones() {
    // Given: 9 nodes in 3 zones, 2 replicas: each shard has one node per zone
    Map<String, Node> nodes = nodes(9, 3);

    // When
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 1024, 2).applyTo(Map.of());

    // Then
    assertDistinctZones(map, nodes);
    assertThat(spread(leaderCounts(map, nodes.keySet()))).isLessThanOrEqualTo(1);
    assertThat(spread(replicaCounts(map, nodes.keySet()))).isLessThanOrEqualTo(1);
  }

  @Test
  void should_spread_a_shard_evenly_over_fewer_zones_than_nodes_per_shard() {
    // Given: 6 nodes in 2 zones, 3 nodes per shard
    Map<String, Node> nodes = nodes(6, 2);

    // When
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 64, 2).applyTo(Map.of());

    // Then: two nodes in one zone and one in the other, never three in one zone
    assertThat(map.values()).allSatisfy(a -> assertThat(mostInOneZone(a, nodes)).isEqualTo(2));
  }

  @Test
  void should_count_nodes_without_zone_as_one_zone() {
    // Given: two nodes without zone and one in az1
    Map<String, Node> nodes = new LinkedHashMap<>();
    nodes.put("a", node("a", null));
    nodes.put("b", node("b", null));
    nodes.put("c", node("c", "az1"));

    // When
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 30, 1).applyTo(Map.of());

    // Then: every shard has c and one of the zone-less nodes
    assertThat(map.values()).allSatisfy(a -> assertThat(a.involves("c")).isTrue());
  }

  @Test
  void should_give_the_same_plan_for_the_same_input_in_any_map_order() {
    // Given: the same nodes, inserted in two orders
    List<Node> shuffled = new ArrayList<>(nodes(7, 3).values());
    Collections.shuffle(shuffled, new Random(7));
    Map<String, Node> shuffledNodes = new LinkedHashMap<>();
    shuffled.forEach(node -> shuffledNodes.put(node.id(), node));

    // When
    Plan first = PlacementPlanner.initial(nodes(7, 3), 1024, 2);
    Plan second = PlacementPlanner.initial(shuffledNodes, 1024, 2);

    // Then
    assertThat(second).isEqualTo(first);
    assertThat(second.describe()).isEqualTo(first.describe());
  }

  @Test
  void should_place_every_configuration_by_the_guarantees() {
    for (int shards : new int[] {1, 7, 64, 1024}) {
      for (int nodeCount = 1; nodeCount <= 12; nodeCount++) {
        for (int zones = 0; zones <= 4; zones++) {
          for (int replicas = 0; replicas <= 2; replicas++) {
            String configuration =
                shards
                    + " shards, "
                    + nodeCount
                    + " nodes, "
                    + zones
                    + " zones, "
                    + replicas
                    + " replicas";
            Map<String, Node> nodes = nodes(nodeCount, zones);
            int replicaCount = replicas;
            if (replicas + 1 > nodeCount) {
              assertThatThrownBy(() -> PlacementPlanner.initial(nodes, shards, replicaCount))
                  .isInstanceOf(PlacementException.class);
              continue;
            }
            Plan plan = PlacementPlanner.initial(nodes, shards, replicas);
            Map<Integer, ShardAssignment> map = plan.applyTo(Map.of());

            assertComplete(map, nodes, shards, replicas);
            assertThat(spread(leaderCounts(map, nodes.keySet())))
                .as("leader spread, %s", configuration)
                .isLessThanOrEqualTo(1);
            int limit = zoneLimit(nodes, replicas + 1);
            assertThat(map.values())
                .as("zone spread, %s", configuration)
                .allSatisfy(a -> assertThat(mostInOneZone(a, nodes)).isLessThanOrEqualTo(limit));
            if (zoneCount(nodes) >= replicas + 1) {
              assertDistinctZones(map, nodes);
            }
            boolean equalZones = zones <= 1 || nodeCount % zones == 0;
            if (equalZones) {
              assertThat(spread(replicaCounts(map, nodes.keySet())))
                  .as("replica spread, %s", configuration)
                  .isLessThanOrEqualTo(1);
            }
            assertThat(plan.warnings()).as("warnings, %s", configuration).isEmpty();
          }
        }
      }
    }
  }

  @Test
  void should_fail_with_a_placement_error_without_enough_nodes() {
    assertThatThrownBy(() -> PlacementPlanner.initial(Map.of(), 1024, 0))
        .isInstanceOf(PlacementException.class)
        .isInstanceOf(TopologyException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(() -> PlacementPlanner.initial(nodes(2, 0), 1024, 2))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("2 replica(s) per shard need at least 3 nodes, the node table has 2");
  }

  @Test
  void should_reject_counts_out_of_range() {
    Map<String, Node> nodes = nodes(3, 0);

    assertThatThrownBy(() -> PlacementPlanner.initial(nodes, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shards must be between 1 and 65536, was 0");
    assertThatThrownBy(() -> PlacementPlanner.initial(nodes, 65537, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PlacementPlanner.initial(nodes, 16, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replicas must be at least 0, was -1");
  }

  @Test
  void should_reject_a_node_table_whose_key_differs_from_the_node_id() {
    Map<String, Node> nodes = Map.of("a", node("b", null));

    assertThatThrownBy(() -> PlacementPlanner.initial(nodes, 16, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a'")
        .hasMessageContaining("'b'");
  }
}
