package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.randomMap;
import static io.jumpgate.topology.PlacementFixtures.replicaCounts;
import static io.jumpgate.topology.PlacementFixtures.spread;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.Node;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PlacementPlannerRebalanceTest {

  @Test
  void should_even_out_leaders_all_on_one_node_with_the_minimum_moves_and_swaps_only() {
    // Given: 1024 shards on 3 nodes, 2 replicas, every leader on node-00
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    for (int shard = 0; shard < 1024; shard++) {
      map.put(shard, ShardAssignment.of(shard, "node-00", List.of("node-01", "node-02"), 1));
    }

    // When
    Plan plan = PlacementPlanner.rebalance(map, nodes);
    Map<Integer, ShardAssignment> after = plan.applyTo(map);

    // Then: 1024 - 342 = 682 moves, each a swap with a replica: no data is copied
    assertThat(PlacementPlanner.minimumLeadershipMoves(map, nodes)).isEqualTo(682);
    assertThat(plan.summary().leadershipsMoved()).isEqualTo(682);
    assertThat(plan.summary().nodesJoining()).isZero();
    assertThat(leaderCounts(after, nodes.keySet()).values()).containsExactly(342, 341, 341);
    assertThat(replicaCounts(after, nodes.keySet()).values()).containsExactly(682, 683, 683);
    assertEpochRule(plan);
  }

  @Test
  void should_reach_a_spread_of_one_with_the_computed_minimum_from_random_maps() {
    Random random = new Random(20261121L);
    for (int shards : new int[] {1, 7, 64, 1024}) {
      for (int nodeCount = 1; nodeCount <= 12; nodeCount++) {
        for (int zones = 0; zones <= 4; zones++) {
          for (int replicas = 0; replicas <= 2 && replicas < nodeCount; replicas++) {
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
            Map<Integer, ShardAssignment> map =
                skewed(
                    random, randomMap(random, new ArrayList<>(nodes.keySet()), shards, replicas));

            Plan plan = PlacementPlanner.rebalance(map, nodes);
            Map<Integer, ShardAssignment> after = plan.applyTo(map);

            assertThat(plan.summary().leadershipsMoved())
                .as("moves, %s", configuration)
                .isEqualTo(minimumMoves(map, nodes))
                .isEqualTo(PlacementPlanner.minimumLeadershipMoves(map, nodes));
            assertThat(spread(leaderCounts(after, nodes.keySet())))
                .as("leader spread, %s", configuration)
                .isLessThanOrEqualTo(1);
            if (zones <= 1) {
              assertThat(spread(replicaCounts(after, nodes.keySet())))
                  .as("replica spread, %s", configuration)
                  .isLessThanOrEqualTo(1);
            }
            assertThat(after.values()).extracting(a -> a.replicas().size()).containsOnly(replicas);
            assertEpochRule(plan);
          }
        }
      }
    }
  }

  @Test
  void should_plan_nothing_for_a_map_fresh_from_initial() {
    for (int nodeCount = 1; nodeCount <= 12; nodeCount++) {
      for (int zones = 0; zones <= 4; zones++) {
        for (int replicas = 0; replicas <= 2 && replicas < nodeCount; replicas++) {
          Map<String, Node> nodes = nodes(nodeCount, zones);
          Map<Integer, ShardAssignment> map =
              PlacementPlanner.initial(nodes, 1024, replicas).applyTo(Map.of());

          assertThat(PlacementPlanner.rebalance(map, nodes).steps())
              .as("%d nodes, %d zones, %d replicas", nodeCount, zones, replicas)
              .isEmpty();
        }
      }
    }
  }

  @Test
  void should_leave_unassigned_shards_unassigned() {
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    map.put(4, ShardAssignment.of(4, "node-00", List.of(), 0));
    map.put(9, ShardAssignment.of(9, "node-00", List.of(), 0));

    Map<Integer, ShardAssignment> after = PlacementPlanner.rebalance(map, nodes).applyTo(map);

    assertThat(after.keySet()).containsExactly(4, 9);
    assertThat(spread(leaderCounts(after, nodes.keySet()))).isLessThanOrEqualTo(1);
  }

  /** Moves most leaderships of a random map onto its first nodes, so that there is work to do. */
  private static Map<Integer, ShardAssignment> skewed(
      Random random, Map<Integer, ShardAssignment> map) {
    Map<Integer, ShardAssignment> skewed = new TreeMap<>();
    for (ShardAssignment assignment : map.values()) {
      List<String> members = new ArrayList<>(assignment.replicas());
      members.add(0, assignment.leader());
      Collections.sort(members);
      String leader = random.nextInt(4) == 0 ? assignment.leader() : members.get(0);
      members.remove(leader);
      skewed.put(assignment.shard(), assignment.withNodes(leader, members));
    }
    return skewed;
  }

  /** The minimum, computed independently: targets floor/ceil, the larger ones to the largest. */
  private static int minimumMoves(Map<Integer, ShardAssignment> map, Map<String, Node> nodes) {
    List<Integer> counts = new ArrayList<>(leaderCounts(map, nodes.keySet()).values());
    counts.sort(Collections.reverseOrder());
    int moves = 0;
    for (int index = 0; index < counts.size(); index++) {
      int target = map.size() / counts.size() + (index < map.size() % counts.size() ? 1 : 0);
      moves += Math.max(0, counts.get(index) - target);
    }
    return moves;
  }
}
