package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Takes shards away from a node that leaves or fails, moving only what that node held.
 *
 * <ul>
 *   <li>A shard it leads fails over: the replica with the fewest leaderships (ties: smallest node
 *       id), or the one named, becomes the leader; the old leader leaves the shard; a new replica
 *       is added to keep the shard's size, chosen by {@link PlacementWorkspace#bestNewReplica}.
 *       When no eligible node is left outside the shard, the shard keeps one replica less and the
 *       plan warns.
 *   <li>A shard it leads that has no replica (removal only): the eligible node with the fewest
 *       leaderships, then the fewest replica memberships, then the smallest id, becomes the leader.
 *       Its data is not on that node: the operator copies it.
 *   <li>A replica slot it holds (removal only) goes to the best new replica for the shard, at the
 *       same position; or is dropped, with a warning, when no eligible node is left.
 * </ul>
 *
 * <p>Shards are handled in ascending order and each choice sees the counts left by the previous
 * ones. Stateless.
 */
final class NodeRemoval {

  private NodeRemoval() {}

  /** Moves every leadership and replica slot of the node elsewhere. */
  static void remove(PlacementWorkspace workspace, String nodeId) {
    for (int shard : workspace.assignedShards()) {
      if (workspace.leaderOf(shard).equals(nodeId)) {
        if (workspace.replicasOf(shard).isEmpty()) {
          workspace.replaceLeader(shard, leastLoadedLeader(workspace, shard));
        } else {
          failover(workspace, shard, null);
        }
      } else if (workspace.replicasOf(shard).contains(nodeId)) {
        replaceReplica(workspace, shard, nodeId);
      }
    }
  }

  /**
   * Promotes {@code toNodeId}, or the replica with the fewest leaderships when null, drops the old
   * leader and adds a replica to keep the shard's size when a node is free.
   */
  static void failover(PlacementWorkspace workspace, int shard, String toNodeId) {
    int size = workspace.membersOf(shard).size();
    String promoted = toNodeId;
    if (promoted == null) {
      for (String replica : workspace.replicasOf(shard)) {
        if (workspace.isEligible(replica)
            && (promoted == null
                || workspace.leaderCount(replica) < workspace.leaderCount(promoted)
                || (workspace.leaderCount(replica) == workspace.leaderCount(promoted)
                    && replica.compareTo(promoted) < 0))) {
          promoted = replica;
        }
      }
      if (promoted == null) {
        throw new PlacementException(
            "shard " + shard + " has no replica that can take over", shard, null);
      }
    }
    workspace.promoteReplica(shard, promoted);
    String added = workspace.bestNewReplica(shard, size, Set.of());
    if (added == null) {
      workspace.replicaLost(shard);
    } else {
      workspace.addReplica(shard, added);
    }
  }

  private static void replaceReplica(PlacementWorkspace workspace, int shard, String nodeId) {
    int size = workspace.membersOf(shard).size();
    List<String> replicas = workspace.replicasOf(shard);
    List<String> without = new ArrayList<>(replicas);
    without.remove(nodeId);
    workspace.assign(shard, workspace.leaderOf(shard), without);
    String added = workspace.bestNewReplica(shard, size, Set.of());
    if (added == null) {
      workspace.replicaLost(shard);
    } else {
      List<String> replaced = new ArrayList<>(replicas);
      replaced.set(replaced.indexOf(nodeId), added);
      workspace.assign(shard, workspace.leaderOf(shard), replaced);
    }
  }

  private static String leastLoadedLeader(PlacementWorkspace workspace, int shard) {
    String best = null;
    for (String candidate : workspace.eligibleNodes()) {
      if (best == null
          || workspace.leaderCount(candidate) < workspace.leaderCount(best)
          || (workspace.leaderCount(candidate) == workspace.leaderCount(best)
              && workspace.replicaCount(candidate) < workspace.replicaCount(best))) {
        best = candidate;
      }
    }
    if (best == null) {
      throw new PlacementException(
          "shard " + shard + " has no replica and no other node can lead it", shard, null);
    }
    return best;
  }
}
