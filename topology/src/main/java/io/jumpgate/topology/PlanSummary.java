package io.jumpgate.topology;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link Plan} moves, in numbers, and how many shards each node leads and replicates before
 * and after it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param leadershipsMoved steps whose shard gets a different leader (or its first leader)
 * @param replicasMoved replica memberships the plan adds: a node listed as a replica after the step
 *     and not before it. A swap in which the old leader takes the new leader's replica slot counts
 *     one, although no data moves
 * @param nodesJoining memberships (leader or replica) given to a node that was not part of the
 *     shard: such a node does not hold the shard's data. Not a count of data copies: the mover
 *     copies a shard's data to its new leader only, an {@code init} or a failover copies nothing
 * @param loadsBefore per node id, sorted: its leaderships and replica memberships before the plan;
 *     every node of the node table and every node the map references
 * @param loadsAfter the same after the plan, for the same node ids
 */
public record PlanSummary(
    int leadershipsMoved,
    int replicasMoved,
    int nodesJoining,
    Map<String, NodeLoad> loadsBefore,
    Map<String, NodeLoad> loadsAfter) {

  /**
   * How many shards a node leads and replicates.
   *
   * <p>Immutable and thread-safe.
   *
   * @param leaders shards the node leads
   * @param replicas shards the node replicates
   */
  public record NodeLoad(int leaders, int replicas) {

    /** A node that holds nothing. */
    public static final NodeLoad NONE = new NodeLoad(0, 0);

    /**
     * @throws IllegalArgumentException if a count is negative
     */
    public NodeLoad {
      if (leaders < 0 || replicas < 0) {
        throw new IllegalArgumentException(
            "loads must be at least 0, were " + leaders + " and " + replicas);
      }
    }
  }

  /** Copies the load maps into unmodifiable maps sorted by node id. */
  public PlanSummary {
    loadsBefore = sortedCopy(Objects.requireNonNull(loadsBefore, "loadsBefore"));
    loadsAfter = sortedCopy(Objects.requireNonNull(loadsAfter, "loadsAfter"));
  }

  /** The summary of these steps, with the loads before and after counted by the caller. */
  static PlanSummary of(
      List<PlanStep> steps, Map<String, NodeLoad> loadsBefore, Map<String, NodeLoad> loadsAfter) {
    int leadershipsMoved = 0;
    int replicasMoved = 0;
    int nodesJoining = 0;
    for (PlanStep step : steps) {
      leadershipsMoved += step.leaderChanged() ? 1 : 0;
      replicasMoved += step.replicasAdded().size();
      nodesJoining += step.nodesJoining().size();
    }
    return new PlanSummary(leadershipsMoved, replicasMoved, nodesJoining, loadsBefore, loadsAfter);
  }

  private static Map<String, NodeLoad> sortedCopy(Map<String, NodeLoad> loads) {
    SortedMap<String, NodeLoad> copy = new TreeMap<>();
    loads.forEach(
        (nodeId, load) ->
            copy.put(Objects.requireNonNull(nodeId, "node id"), Objects.requireNonNull(load)));
    return Collections.unmodifiableSortedMap(copy);
  }
}
