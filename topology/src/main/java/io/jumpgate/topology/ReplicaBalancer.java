package io.jumpgate.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evens out replica memberships over the eligible nodes by moving replica slots, without touching
 * leaderships and without raising any shard's zone excess.
 *
 * <p>Targets: with {@code P} replica slots over {@code E} nodes, the {@code P mod E} nodes that
 * hold the most get {@code ceil(P/E)}, the others {@code floor(P/E)}. Slots move only from a node
 * above its target to a node below it: first directly (one slot of one shard), then along chains
 * found by breadth-first search (node a gives its slot of shard 1 to node b, which gives its slot
 * of shard 2 to node c, ...; the shards of a chain are distinct). Every move lowers the total
 * excess by one, so the balancer stops; it reaches the targets whenever a chain exists, which is
 * always the case without zones in the configurations the tests cover, and is best effort with
 * zones. Stateless.
 */
final class ReplicaBalancer {

  private ReplicaBalancer() {}

  /** Moves replica slots toward the targets; returns the number of slots moved. */
  static int balance(PlacementWorkspace workspace) {
    List<String> nodes = workspace.eligibleNodes();
    if (nodes.size() < 2) {
      return 0;
    }
    Map<String, Integer> targets = targets(workspace, nodes);
    int moves = moveDirectly(workspace, nodes, targets);
    int chainMoves;
    while ((chainMoves = moveAlongChain(workspace, nodes, targets)) > 0) {
      moves += chainMoves;
    }
    return moves;
  }

  private static Map<String, Integer> targets(PlacementWorkspace workspace, List<String> nodes) {
    int total = 0;
    for (String node : nodes) {
      total += workspace.replicaCount(node);
    }
    List<String> byCount = new ArrayList<>(nodes);
    byCount.sort(
        Comparator.comparingInt((String node) -> -workspace.replicaCount(node))
            .thenComparing(Comparator.naturalOrder()));
    Map<String, Integer> targets = new HashMap<>();
    for (int index = 0; index < byCount.size(); index++) {
      int extra = index < total % nodes.size() ? 1 : 0;
      targets.put(byCount.get(index), total / nodes.size() + extra);
    }
    return targets;
  }

  private static int moveDirectly(
      PlacementWorkspace workspace, List<String> nodes, Map<String, Integer> targets) {
    List<String> donors = new ArrayList<>(nodes);
    donors.sort(
        Comparator.comparingInt((String node) -> targets.get(node) - workspace.replicaCount(node))
            .thenComparing(Comparator.naturalOrder()));
    int moves = 0;
    for (String donor : donors) {
      for (int shard : workspace.shardsReplicatedBy(donor)) {
        if (workspace.replicaCount(donor) <= targets.get(donor)) {
          break;
        }
        String receiver = null;
        for (String candidate : nodes) {
          if (workspace.replicaCount(candidate) < targets.get(candidate)
              && !workspace.involves(shard, candidate)
              && workspace.replacementKeepsZones(shard, donor, candidate)
              && (receiver == null
                  || deficit(workspace, targets, candidate)
                      > deficit(workspace, targets, receiver))) {
            receiver = candidate;
          }
        }
        if (receiver != null) {
          workspace.replaceReplica(shard, donor, receiver);
          moves++;
        }
      }
    }
    return moves;
  }

  /**
   * Finds one chain from a node above its target to one below and applies it, then applies the same
   * chain of nodes again (with other shards) while it still leads from above to below; returns the
   * number of slots moved.
   */
  private static int moveAlongChain(
      PlacementWorkspace workspace, List<String> nodes, Map<String, Integer> targets) {
    Map<String, String> previousNode = new HashMap<>();
    Map<String, Integer> viaShard = new HashMap<>();
    ArrayDeque<String> queue = new ArrayDeque<>();
    boolean anyBelow = false;
    for (String node : nodes) {
      int count = workspace.replicaCount(node);
      if (count > targets.get(node)) {
        previousNode.put(node, null);
        queue.add(node);
      }
      anyBelow |= count < targets.get(node);
    }
    if (queue.isEmpty() || !anyBelow) {
      return 0;
    }
    while (!queue.isEmpty()) {
      String giver = queue.poll();
      List<Integer> giverShards = workspace.shardsReplicatedBy(giver);
      Set<String> zonesWithoutRoom = new HashSet<>();
      for (String taker : nodes) {
        if (previousNode.containsKey(taker) || zonesWithoutRoom.contains(workspace.zone(taker))) {
          continue;
        }
        // Whether a slot can move to the taker's zone depends on the zone only: remember a zone
        // that no shard of the giver has room for.
        boolean room = false;
        Integer via = null;
        for (int shard : giverShards) {
          if (workspace.replacementKeepsZones(shard, giver, taker)) {
            room = true;
            if (!workspace.involves(shard, taker)
                && !chainUses(previousNode, viaShard, giver, shard)) {
              via = shard;
              break;
            }
          }
        }
        if (!room) {
          zonesWithoutRoom.add(workspace.zone(taker));
        }
        if (via == null) {
          continue;
        }
        previousNode.put(taker, giver);
        viaShard.put(taker, via);
        if (workspace.replicaCount(taker) < targets.get(taker)) {
          return applyRepeatedly(workspace, targets, previousNode, viaShard, taker);
        }
        queue.add(taker);
      }
    }
    return 0;
  }

  private static boolean chainUses(
      Map<String, String> previousNode, Map<String, Integer> viaShard, String node, int shard) {
    for (String at = node; previousNode.get(at) != null; at = previousNode.get(at)) {
      if (viaShard.get(at) == shard) {
        return true;
      }
    }
    return false;
  }

  private static int applyRepeatedly(
      PlacementWorkspace workspace,
      Map<String, Integer> targets,
      Map<String, String> previousNode,
      Map<String, Integer> viaShard,
      String last) {
    List<String> chain = new ArrayList<>();
    List<Integer> shards = new ArrayList<>();
    for (String taker = last; previousNode.get(taker) != null; taker = previousNode.get(taker)) {
      chain.add(0, taker);
      shards.add(0, viaShard.get(taker));
    }
    chain.add(0, previousNode.get(chain.get(0)));
    int moves = 0;
    while (shards != null) {
      for (int hop = 0; hop < shards.size(); hop++) {
        workspace.replaceReplica(shards.get(hop), chain.get(hop), chain.get(hop + 1));
      }
      moves += shards.size();
      String first = chain.get(0);
      boolean stillUseful =
          workspace.replicaCount(first) > targets.get(first)
              && workspace.replicaCount(last) < targets.get(last);
      shards = stillUseful ? findShards(workspace, chain) : null;
    }
    return moves;
  }

  /** A distinct shard for each hop of the chain of nodes, or null if some hop has none. */
  private static List<Integer> findShards(PlacementWorkspace workspace, List<String> chain) {
    List<Integer> shards = new ArrayList<>();
    for (int hop = 0; hop + 1 < chain.size(); hop++) {
      String giver = chain.get(hop);
      String taker = chain.get(hop + 1);
      Integer found = null;
      for (int shard : workspace.shardsReplicatedBy(giver)) {
        if (!shards.contains(shard)
            && !workspace.involves(shard, taker)
            && workspace.replacementKeepsZones(shard, giver, taker)) {
          found = shard;
          break;
        }
      }
      if (found == null) {
        return null;
      }
      shards.add(found);
    }
    return shards;
  }

  private static int deficit(
      PlacementWorkspace workspace, Map<String, Integer> targets, String node) {
    return targets.get(node) - workspace.replicaCount(node);
  }
}
