package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings the leaderships of the eligible nodes to at most one apart with the fewest moves.
 *
 * <p>Targets: with {@code S} assigned shards over {@code E} nodes, the {@code S mod E} nodes that
 * lead the most get {@code ceil(S/E)}, the others {@code floor(S/E)}. Giving the larger targets to
 * the larger counts minimises {@code sum(max(0, leaders - target))}, and no plan that ends at most
 * one apart moves fewer leaderships (every end state is such a target vector, and a move lowers one
 * node's count by one). The balancer moves exactly that many: each move goes from a node above its
 * target to a node below it, never elsewhere.
 *
 * <p>Which shard moves to which node: the passes try, in order, transfers of kind {@link
 * LeadershipTransfer.Kind#SWAP} (the receiver is already a replica: an in-sync replica is promoted
 * and no data moves), then {@code REPLACE}, then {@code REPLACE_AND_REPAIR_ZONES}, then {@code
 * REPLACE_BREAKING_ZONES}; within a pass, the receiver is the node below its target with the
 * cheapest kind of transfer, then the largest remaining deficit, then the smallest node id. The
 * donors go in order of excess, largest first, and give their shards in ascending shard order.
 * Stateless.
 */
final class LeaderBalancer {

  private LeaderBalancer() {}

  /** The leadership each eligible node should end with (see the class doc). */
  static Map<String, Integer> targets(PlacementWorkspace workspace) {
    List<String> nodes = new ArrayList<>(workspace.eligibleNodes());
    int total = workspace.assignedShards().size();
    nodes.sort(
        Comparator.comparingInt((String node) -> -workspace.leaderCount(node))
            .thenComparing(Comparator.naturalOrder()));
    Map<String, Integer> targets = new HashMap<>();
    for (int index = 0; index < nodes.size(); index++) {
      int extra = index < total % nodes.size() ? 1 : 0;
      targets.put(nodes.get(index), total / nodes.size() + extra);
    }
    return targets;
  }

  /** The fewest leadership moves that bring the eligible nodes to at most one apart. */
  static int minimumMoves(PlacementWorkspace workspace) {
    int moves = 0;
    for (Map.Entry<String, Integer> target : targets(workspace).entrySet()) {
      moves += Math.max(0, workspace.leaderCount(target.getKey()) - target.getValue());
    }
    return moves;
  }

  /** Moves leaderships until every eligible node is at its target; returns the number of moves. */
  static int balance(PlacementWorkspace workspace) {
    Map<String, Integer> targets = targets(workspace);
    List<String> donors = new ArrayList<>(workspace.eligibleNodes());
    donors.sort(
        Comparator.comparingInt((String node) -> targets.get(node) - workspace.leaderCount(node))
            .thenComparing(Comparator.naturalOrder()));
    int moves = 0;
    for (LeadershipTransfer.Kind allowed : LeadershipTransfer.Kind.values()) {
      for (String donor : donors) {
        for (int shard : workspace.shardsLedBy(donor)) {
          if (workspace.leaderCount(donor) <= targets.get(donor)) {
            break;
          }
          String receiver = receiver(workspace, targets, shard, allowed);
          if (receiver != null) {
            LeadershipTransfer.apply(workspace, shard, receiver);
            moves++;
          }
        }
      }
    }
    return moves;
  }

  /**
   * The node below its target that best takes the shard's leadership by a transfer no worse than
   * {@code allowed}, or null.
   */
  private static String receiver(
      PlacementWorkspace workspace,
      Map<String, Integer> targets,
      int shard,
      LeadershipTransfer.Kind allowed) {
    String best = null;
    LeadershipTransfer.Kind bestKind = null;
    int bestDeficit = 0;
    List<String> candidates =
        allowed == LeadershipTransfer.Kind.SWAP
            ? workspace.replicasOf(shard)
            : workspace.eligibleNodes();
    for (String candidate : candidates) {
      if (!workspace.isEligible(candidate)) {
        continue;
      }
      int deficit = targets.get(candidate) - workspace.leaderCount(candidate);
      if (deficit <= 0) {
        continue;
      }
      LeadershipTransfer.Kind kind = LeadershipTransfer.kind(workspace, shard, candidate);
      if (kind.compareTo(allowed) > 0) {
        continue;
      }
      if (best == null
          || kind.compareTo(bestKind) < 0
          || (kind == bestKind && deficit > bestDeficit)
          || (kind == bestKind && deficit == bestDeficit && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestKind = kind;
        bestDeficit = deficit;
      }
    }
    return best;
  }
}
