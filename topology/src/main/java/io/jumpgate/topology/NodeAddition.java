package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Moves leaderships, then replica slots, onto one node (normally a node just added) until it is
 * within one of the most loaded node. Nothing moves between the other nodes, except the old leader
 * taking a replica slot in the two transfer kinds of {@link LeadershipTransfer} that call for it.
 *
 * <p>Leaderships: while the most leaderships held by another node is at least the new node's plus
 * two, one leadership moves from a node at that maximum to the new node, by the cheapest {@link
 * LeadershipTransfer.Kind} any such node offers (ties: the smallest node id, then the smallest
 * shard id). Starting from a map whose leaderships are at most one apart, this ends with the new
 * node at {@code floor(S/(N+1))} leaderships, the others at that or one more: exactly the minimum
 * number of moves. From a skewed map it still only moves onto the new node; {@code rebalance} evens
 * out the rest.
 *
 * <p>Replica slots: while another node holds at least the new node's replica count plus two, the
 * node with the most (ties: smallest id) that has a shard the new node is not part of, and whose
 * slot the new node can take without raising the zone excess, gives up its slot of its smallest
 * such shard. Stateless.
 */
final class NodeAddition {

  private NodeAddition() {}

  static void plan(PlacementWorkspace workspace, String newNode) {
    moveLeaderships(workspace, newNode);
    moveReplicas(workspace, newNode);
  }

  private static void moveLeaderships(PlacementWorkspace workspace, String newNode) {
    // The kind of transfer of a shard depends on its nodes only, and a shard's nodes change only
    // when its leadership moves here: so the kinds are computed once, per donor and kind.
    Map<String, Map<LeadershipTransfer.Kind, TreeSet<Integer>>> shardsByKind = new HashMap<>();
    List<String> others = new ArrayList<>(workspace.eligibleNodes());
    others.remove(newNode);
    for (String donor : others) {
      Map<LeadershipTransfer.Kind, TreeSet<Integer>> byKind =
          new EnumMap<>(LeadershipTransfer.Kind.class);
      for (int shard : workspace.shardsLedBy(donor)) {
        byKind
            .computeIfAbsent(
                LeadershipTransfer.kind(workspace, shard, newNode), kind -> new TreeSet<>())
            .add(shard);
      }
      shardsByKind.put(donor, byKind);
    }
    while (true) {
      int most = 0;
      for (String donor : others) {
        most = Math.max(most, workspace.leaderCount(donor));
      }
      if (most < workspace.leaderCount(newNode) + 2) {
        return;
      }
      TreeSet<Integer> source = cheapestShards(workspace, others, most, shardsByKind);
      LeadershipTransfer.apply(workspace, source.pollFirst(), newNode);
    }
  }

  private static TreeSet<Integer> cheapestShards(
      PlacementWorkspace workspace,
      List<String> others,
      int most,
      Map<String, Map<LeadershipTransfer.Kind, TreeSet<Integer>>> shardsByKind) {
    for (LeadershipTransfer.Kind kind : LeadershipTransfer.Kind.values()) {
      for (String donor : others) {
        TreeSet<Integer> shards = shardsByKind.get(donor).get(kind);
        if (workspace.leaderCount(donor) == most && shards != null && !shards.isEmpty()) {
          return shards;
        }
      }
    }
    throw new IllegalStateException("planner bug: a node leads " + most + " shards but none");
  }

  private static void moveReplicas(PlacementWorkspace workspace, String newNode) {
    // A slot the new node cannot take now it cannot take later either (it only joins shards), so
    // each donor's shards are examined once, in ascending order.
    Map<String, Integer> nextShard = new HashMap<>();
    List<String> others = new ArrayList<>(workspace.eligibleNodes());
    others.remove(newNode);
    while (true) {
      others.sort(
          (left, right) -> {
            int byCount = workspace.replicaCount(right) - workspace.replicaCount(left);
            return byCount != 0 ? byCount : left.compareTo(right);
          });
      boolean moved = false;
      for (String donor : others) {
        if (workspace.replicaCount(donor) < workspace.replicaCount(newNode) + 2) {
          break;
        }
        Integer shard = workspace.nextShardReplicatedBy(donor, nextShard.getOrDefault(donor, 0));
        while (shard != null
            && (workspace.involves(shard, newNode)
                || !workspace.replacementKeepsZones(shard, donor, newNode))) {
          shard = workspace.nextShardReplicatedBy(donor, shard + 1);
        }
        if (shard == null) {
          nextShard.put(donor, Integer.MAX_VALUE);
          continue;
        }
        nextShard.put(donor, shard + 1);
        workspace.replaceReplica(shard, donor, newNode);
        moved = true;
        break;
      }
      if (!moved) {
        return;
      }
    }
  }
}
