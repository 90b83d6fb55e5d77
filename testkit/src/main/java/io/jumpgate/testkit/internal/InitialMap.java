package io.jumpgate.testkit.internal;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.Plan;
import io.jumpgate.topology.PlanStep;
import io.jumpgate.topology.PlanSummary;
import io.jumpgate.topology.PlanSummary.NodeLoad;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminPlan;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import io.jumpgate.topology.TopologyAdminResult;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a local cluster's first map through the public admin API: the planner places the
 * leaderships over the leader servers ({@link TopologyAdmin#planInit} with no replicas), then each
 * shard's replicas become the servers that really replicate its leader ({@code --replicaof}), which
 * the planner cannot know, and {@link TopologyAdmin#apply} writes the plan with the init protocol
 * (claim, batches, meta last). Stateless, thread-safe.
 */
public final class InitialMap {

  private InitialMap() {}

  /**
   * @param leaders the leader servers by node id
   * @param replicasOf the node ids of the servers that replicate each leader, by leader id
   * @param replicaNodes the replica servers by node id
   */
  public static TopologyAdminResult write(
      TopologyAdmin admin,
      int shards,
      Map<String, Node> leaders,
      Map<String, List<String>> replicasOf,
      Map<String, Node> replicaNodes) {
    TopologyAdminPlan leadersOnly = admin.planInit(leaders, shards, 0);
    TopologyKeys keys = TopologyKeys.forCluster(admin.cluster());
    Map<String, Node> nodes = new TreeMap<>(leaders);
    nodes.putAll(replicaNodes);

    List<PlanStep> steps = new ArrayList<>();
    Map<String, int[]> loads = new TreeMap<>();
    nodes.keySet().forEach(id -> loads.put(id, new int[2]));
    for (PlanStep step : leadersOnly.plan().steps()) {
      String leader = step.after().leader();
      List<String> replicas = replicasOf.getOrDefault(leader, List.of());
      steps.add(
          new PlanStep(step.shard(), null, ShardAssignment.of(step.shard(), leader, replicas, 0)));
      loads.get(leader)[0]++;
      replicas.forEach(replica -> loads.get(replica)[1]++);
    }
    Map<String, NodeLoad> before = new TreeMap<>();
    Map<String, NodeLoad> after = new TreeMap<>();
    loads.forEach(
        (id, load) -> {
          before.put(id, NodeLoad.NONE);
          after.put(id, new NodeLoad(load[0], load[1]));
        });
    int replicaMemberships = after.values().stream().mapToInt(NodeLoad::replicas).sum();
    Plan plan =
        new Plan(
            "initial placement of "
                + shards
                + " shard(s) on "
                + leaders.size()
                + " leader(s), replicas as the servers replicate",
            steps,
            new PlanSummary(
                steps.size(), replicaMemberships, steps.size() + replicaMemberships, before, after),
            List.of());

    List<NodeChange> nodeChanges = new ArrayList<>();
    List<KeyWrite> writes = new ArrayList<>();
    nodes.forEach(
        (id, node) -> {
          nodeChanges.add(new NodeChange(id, node));
          writes.add(new KeyWrite(keys.node(id), text(TopologyCodec.encodeNode(node)), 0));
        });
    for (PlanStep step : steps) {
      writes.add(
          new KeyWrite(
              keys.shard(step.shard()), text(TopologyCodec.encodeAssignment(step.after())), 0));
    }
    int perTransaction = admin.adminOptions().maxOperationsPerTransaction();
    TopologyAdminPlan withReplicas =
        new TopologyAdminPlan(
            leadersOnly.cluster(),
            leadersOnly.readRevision(),
            plan,
            leadersOnly.metadata(),
            nodeChanges,
            writes,
            List.of(),
            (writes.size() + perTransaction - 1) / perTransaction + 1);
    return admin.apply(withReplicas);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
