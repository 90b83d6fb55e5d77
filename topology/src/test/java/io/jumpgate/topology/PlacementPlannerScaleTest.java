package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertDistinctZones;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.node;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.spread;
import static io.jumpgate.topology.PlacementFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.Node;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Every operation on 1024 shards and 100 nodes in 3 zones; no assertion on time. */
class PlacementPlannerScaleTest {

  @Test
  void should_plan_every_operation_on_1024_shards_and_100_nodes() {
    // Given
    Map<String, Node> nodes = nodes(100, 3);

    // When / Then
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 1024, 2).applyTo(Map.of());
    assertDistinctZones(map, nodes);

    Map<String, Node> more = with(nodes, node("node-100", "az1"));
    Plan addNode = PlacementPlanner.addNode(map, more, "node-100");
    assertThat(addNode.summary().leadershipsMoved()).isEqualTo(1024 / 101);
    assertThat(spread(leaderCounts(addNode.applyTo(map), more.keySet()))).isLessThanOrEqualTo(1);

    Plan removeNode = PlacementPlanner.removeNode(map, nodes, "node-42");
    assertDistinctZones(removeNode.applyTo(map), nodes);

    Plan failoverNode = PlacementPlanner.failoverNode(map, nodes, "node-42");
    assertThat(failoverNode.steps()).hasSize(map.size() / 100 + (42 < map.size() % 100 ? 1 : 0));

    Map<Integer, ShardAssignment> skewed = new TreeMap<>();
    for (ShardAssignment assignment : map.values()) {
      skewed.put(
          assignment.shard(),
          assignment.leader().equals("node-00") || assignment.replicas().contains("node-00")
              ? assignment
              : assignment.withNodes("node-00", List.of(assignment.leader())));
    }
    Plan rebalance = PlacementPlanner.rebalance(skewed, nodes);
    assertThat(rebalance.summary().leadershipsMoved())
        .isEqualTo(PlacementPlanner.minimumLeadershipMoves(skewed, nodes));
    assertThat(spread(leaderCounts(rebalance.applyTo(skewed), nodes.keySet())))
        .isLessThanOrEqualTo(1);
  }
}
