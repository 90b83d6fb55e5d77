package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a finished {@link PlacementWorkspace} into a {@link Plan}: one step per shard whose nodes
 * changed, the summary, and the warnings. Stateless.
 *
 * <p>Each {@code after} is built from the input assignment with {@link ShardAssignment#withNodes},
 * whatever the workspace did in between, so the epoch goes up by exactly one when the final leader
 * differs from the first, and a shard whose nodes end as they started is not in the plan.
 */
final class PlanAssembler {

  private static final int SHARDS_NAMED_IN_A_WARNING = 10;

  private PlanAssembler() {}

  static Plan assemble(PlacementWorkspace workspace, String operation) {
    Map<Integer, ShardAssignment> original = workspace.originalAssignments();
    TreeSet<Integer> shards = new TreeSet<>(original.keySet());
    shards.addAll(workspace.assignedShards());
    List<PlanStep> steps = new ArrayList<>();
    List<Integer> zoneViolations = new ArrayList<>();
    for (int shard : shards) {
      ShardAssignment before = original.get(shard);
      String leader = workspace.leaderOf(shard);
      List<String> replicas = workspace.replicasOf(shard);
      if (before != null && before.leader().equals(leader) && before.replicas().equals(replicas)) {
        continue;
      }
      ShardAssignment after =
          before == null
              ? ShardAssignment.of(shard, leader, replicas, 0)
              : before.withNodes(leader, replicas);
      steps.add(new PlanStep(shard, before, after));
      List<String> members = workspace.membersOf(shard);
      int excessBefore = before == null ? 0 : workspace.zoneExcess(nodesOf(before), members.size());
      if (workspace.zoneExcess(members, members.size()) > excessBefore) {
        zoneViolations.add(shard);
      }
    }
    List<String> warnings = new ArrayList<>();
    if (!workspace.shardsShortOfReplicas().isEmpty()) {
      warnings.add(
          workspace.shardsShortOfReplicas().size()
              + " shard(s) keep one replica less, because no other node can take one: "
              + excerpt(workspace.shardsShortOfReplicas()));
    }
    if (!zoneViolations.isEmpty()) {
      warnings.add(
          zoneViolations.size()
              + " shard(s) put more nodes in one zone than the zones require: "
              + excerpt(zoneViolations));
    }
    return new Plan(operation, steps, summary(workspace, steps), warnings);
  }

  private static PlanSummary summary(PlacementWorkspace workspace, List<PlanStep> steps) {
    Map<String, int[]> before = new TreeMap<>();
    for (String nodeId : workspace.knownNodes()) {
      before.put(nodeId, new int[2]);
    }
    for (ShardAssignment assignment : workspace.originalAssignments().values()) {
      before.get(assignment.leader())[0]++;
      assignment.replicas().forEach(replica -> before.get(replica)[1]++);
    }
    Map<String, PlanSummary.NodeLoad> loadsBefore = new TreeMap<>();
    Map<String, PlanSummary.NodeLoad> loadsAfter = new TreeMap<>();
    before.forEach(
        (nodeId, counts) -> {
          loadsBefore.put(nodeId, new PlanSummary.NodeLoad(counts[0], counts[1]));
          loadsAfter.put(
              nodeId,
              new PlanSummary.NodeLoad(
                  workspace.leaderCount(nodeId), workspace.replicaCount(nodeId)));
        });
    return PlanSummary.of(steps, loadsBefore, loadsAfter);
  }

  private static List<String> nodesOf(ShardAssignment assignment) {
    List<String> nodes = new ArrayList<>(assignment.replicas());
    nodes.add(0, assignment.leader());
    return nodes;
  }

  /** The first shard ids, then "..." if there are more. */
  private static String excerpt(Collection<Integer> shards) {
    StringBuilder text = new StringBuilder();
    int written = 0;
    for (int shard : shards) {
      if (written == SHARDS_NAMED_IN_A_WARNING) {
        return text.append(", ...").toString();
      }
      text.append(written++ == 0 ? "" : ", ").append(shard);
    }
    return text.toString();
  }
}
