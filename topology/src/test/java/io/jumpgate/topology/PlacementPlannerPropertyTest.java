package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.assertEpochRule;
import static io.jumpgate.topology.PlacementFixtures.leaderCounts;
import static io.jumpgate.topology.PlacementFixtures.node;
import static io.jumpgate.topology.PlacementFixtures.nodeId;
import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.PlacementFixtures.randomMap;
import static io.jumpgate.topology.PlacementFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every operation on random (valid, unbalanced, zone-unaware) maps of many small configurations,
 * with a fixed seed: the invariants that hold whatever the input.
 */
class PlacementPlannerPropertyTest {

  private static final long SEED = 0x5eed_2026L;

  @Test
  void should_keep_the_invariants_of_every_operation_on_random_maps() {
    Random random = new Random(SEED);
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
            Map<String, Node> nodes = Collections.unmodifiableMap(nodes(nodeCount, zones));
            List<String> ids = new ArrayList<>(nodes.keySet());
            Map<Integer, ShardAssignment> map =
                Collections.unmodifiableMap(randomMap(random, ids, shards, replicas));
            String someNode = ids.get(random.nextInt(ids.size()));
            int someShard = random.nextInt(shards);

            checkRemoveNode(map, nodes, someNode, replicas, configuration);
            checkFailoverNode(map, nodes, someNode, replicas, configuration);
            checkAddNode(map, nodes, zones, configuration);
            checkMoveLeader(map, nodes, someShard, someNode, configuration);
            checkFailoverShard(map, nodes, someShard, replicas, configuration);
            assertThat(PlacementPlanner.rebalance(map, nodes))
                .as("same plan for the same input, %s", configuration)
                .isEqualTo(PlacementPlanner.rebalance(map, nodes));
          }
        }
      }
    }
  }

  private static void checkRemoveNode(
      Map<Integer, ShardAssignment> map,
      Map<String, Node> nodes,
      String removed,
      int replicas,
      String configuration) {
    if (nodes.size() == 1) {
      assertThatThrownBy(() -> PlacementPlanner.removeNode(map, nodes, removed))
          .isInstanceOf(PlacementException.class);
      return;
    }
    Plan plan = PlacementPlanner.removeNode(map, nodes, removed);
    Map<Integer, ShardAssignment> after = checkPlan(plan, map, nodes, configuration);
    for (ShardAssignment before : map.values()) {
      ShardAssignment now = after.get(before.shard());
      if (!before.involves(removed)) {
        assertThat(now).as("untouched shard, %s", configuration).isSameAs(before);
        continue;
      }
      assertThat(now.involves(removed)).as("%s", configuration).isFalse();
      assertThat(now.replicas())
          .as("replicas, %s", configuration)
          .hasSize(Math.min(replicas, nodes.size() - 2));
      if (before.leader().equals(removed) && replicas > 0) {
        assertThat(before.replicas()).as("promoted, %s", configuration).contains(now.leader());
      }
    }
  }

  private static void checkFailoverNode(
      Map<Integer, ShardAssignment> map,
      Map<String, Node> nodes,
      String failed,
      int replicas,
      String configuration) {
    boolean leadsSomething = map.values().stream().anyMatch(a -> a.leader().equals(failed));
    if (replicas == 0 && leadsSomething) {
      assertThatThrownBy(() -> PlacementPlanner.failoverNode(map, nodes, failed))
          .isInstanceOf(PlacementException.class);
      return;
    }
    Plan plan = PlacementPlanner.failoverNode(map, nodes, failed);
    Map<Integer, ShardAssignment> after = checkPlan(plan, map, nodes, configuration);
    for (ShardAssignment before : map.values()) {
      ShardAssignment now = after.get(before.shard());
      if (!before.leader().equals(failed)) {
        assertThat(now).as("shard not led by the node, %s", configuration).isSameAs(before);
        continue;
      }
      assertThat(before.replicas()).as("promoted, %s", configuration).contains(now.leader());
      assertThat(now.epoch()).isEqualTo(before.epoch() + 1);
      assertThat(now.involves(failed)).isFalse();
      assertThat(now.replicas()).hasSize(Math.min(replicas, nodes.size() - 2));
    }
  }

  private static void checkAddNode(
      Map<Integer, ShardAssignment> map, Map<String, Node> nodes, int zones, String configuration) {
    String added = nodeId(nodes.size());
    Map<String, Node> more =
        with(nodes, node(added, zones == 0 ? null : "az" + nodes.size() % zones));
    Plan plan = PlacementPlanner.addNode(map, more, added);
    Map<Integer, ShardAssignment> after = checkPlan(plan, map, more, configuration);
    Map<String, Integer> leadersBefore = leaderCounts(map, more.keySet());
    Map<String, Integer> leadersAfter = leaderCounts(after, more.keySet());
    for (PlanStep step : plan.steps()) {
      if (step.leaderChanged()) {
        assertThat(step.after().leader()).as("new leader, %s", configuration).isEqualTo(added);
      }
    }
    int mostOther = 0;
    for (String nodeId : nodes.keySet()) {
      assertThat(leadersAfter.get(nodeId)).isLessThanOrEqualTo(leadersBefore.get(nodeId));
      mostOther = Math.max(mostOther, leadersAfter.get(nodeId));
    }
    assertThat(mostOther - leadersAfter.get(added))
        .as("the new node ends within one of the most loaded, %s", configuration)
        .isLessThanOrEqualTo(1);
  }

  private static void checkMoveLeader(
      Map<Integer, ShardAssignment> map,
      Map<String, Node> nodes,
      int shard,
      String target,
      String configuration) {
    Plan plan = PlacementPlanner.moveLeader(map, nodes, shard, target);
    Map<Integer, ShardAssignment> after = checkPlan(plan, map, nodes, configuration);
    ShardAssignment before = map.get(shard);
    assertThat(plan.steps()).hasSize(before.leader().equals(target) ? 0 : 1);
    assertThat(after.get(shard).leader()).isEqualTo(target);
    assertThat(after.get(shard).replicas()).hasSameSizeAs(before.replicas());
    if (before.replicas().contains(target)) {
      assertThat(after.get(shard).replicas()).contains(before.leader());
    }
  }

  private static void checkFailoverShard(
      Map<Integer, ShardAssignment> map,
      Map<String, Node> nodes,
      int shard,
      int replicas,
      String configuration) {
    if (replicas == 0) {
      assertThatThrownBy(() -> PlacementPlanner.failoverShard(map, nodes, shard, null))
          .isInstanceOf(PlacementException.class);
      return;
    }
    Plan plan = PlacementPlanner.failoverShard(map, nodes, shard, null);
    Map<Integer, ShardAssignment> after = checkPlan(plan, map, nodes, configuration);
    ShardAssignment before = map.get(shard);
    assertThat(plan.steps()).hasSize(1);
    assertThat(before.replicas()).contains(after.get(shard).leader());
    assertThat(after.get(shard).involves(before.leader())).isFalse();
    assertThat(after.get(shard).epoch()).isEqualTo(before.epoch() + 1);
  }

  /** Checks what holds for every plan and returns the map after it. */
  private static Map<Integer, ShardAssignment> checkPlan(
      Plan plan, Map<Integer, ShardAssignment> map, Map<String, Node> nodes, String configuration) {
    Map<Integer, ShardAssignment> before = new TreeMap<>(map);
    Map<Integer, ShardAssignment> after = plan.applyTo(map);
    assertThat(map).as("input untouched, %s", configuration).isEqualTo(before);
    assertThat(after.keySet()).isEqualTo(map.keySet());
    for (PlanStep step : plan.steps()) {
      assertThat(step.after()).isNotEqualTo(step.before());
      assertThat(nodes).containsKey(step.after().leader());
      assertThat(nodes.keySet()).containsAll(step.after().replicas());
    }
    assertEpochRule(plan);
    return after;
  }
}
