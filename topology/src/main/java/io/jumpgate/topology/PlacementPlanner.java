package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Computes changes of the shard map as {@link Plan}s: the first placement, adding and removing a
 * node, moving one leadership, failing over, and rebalancing. Pure logic: no etcd, no clock, no
 * randomness. Nothing is applied here; an admin writes a plan's steps in one etcd Txn on request.
 *
 * <p>Stateless and thread-safe: every method copies what it reads, never modifies its arguments,
 * and returns the same plan for the same arguments (node ids are sorted, every tie is broken by
 * node id, then by shard id).
 *
 * <h2>Design</h2>
 *
 * <p><b>Inputs.</b> The shard map is a {@code Map<Integer, ShardAssignment>} by shard id; a missing
 * shard is unassigned and only {@link #initial} assigns shards. The node table is a {@code
 * Map<String, Node>} by node id. Every node the map references must be in the node table, except
 * the node that {@link #removeNode}, {@link #failoverNode} or {@link #failoverShard} takes shards
 * away from; that node never receives anything. Each shard keeps its own replica count: only {@link
 * #initial} takes a replica count, and the other operations keep every shard's size when there are
 * enough nodes.
 *
 * <p><b>Zone rule.</b> A shard of {@code k} nodes puts at most {@code L} of them in one zone, with
 * {@code L} the smallest limit the zones can meet: distinct zones when there are at least {@code k}
 * zones, otherwise as even a spread as the zone sizes allow. Nodes without a zone count as one
 * zone. The planner never raises a shard's excess over the limit when it has a choice, and adds a
 * warning to the plan when it has none.
 *
 * <p><b>Leadership transfer.</b> One rule for {@link #addNode}, {@link #moveLeader} and {@link
 * #rebalance}: if the new leader is a replica of the shard, the two swap roles (no data moves);
 * otherwise the new leader replaces the old one, which leaves the shard, and the replicas stay; if
 * that would put two nodes in one zone, the old leader instead takes the slot of the replica that
 * shares the new leader's zone. The replica count never changes and the epoch goes up by one.
 *
 * <p><b>Algorithms.</b> {@link #initial}: round-robin leaders over sorted node ids; replicas chosen
 * greedily (zone rule, then fewest replicas, then fewest shards already shared with the same
 * leader, so that each node's leaderships fail over to many different nodes); then replica
 * balancing by direct moves and by chains of moves found with breadth-first search. {@link
 * #addNode}: repeatedly move one leadership from a node at the maximum to the new node until it is
 * within one, then replica slots the same way. {@link #removeNode} and failovers: promote the
 * replica with the fewest leaderships and fill the freed slot with the least loaded node outside
 * the shard. {@link #rebalance}: compute per-node targets that minimise the number of leadership
 * moves, move exactly that many (swaps with an in-sync replica first), then balance replicas.
 *
 * <p><b>Cost.</b> About {@code shards x nodes} per pass. On 1024 shards and 100 nodes every
 * operation takes well under a second, tens of milliseconds once the JVM is warm. On 65536 shards
 * and 100 nodes most take one or two seconds; the worst case measured, a rebalance with every
 * leadership on one node, about ten.
 *
 * <p><b>Errors.</b> Arguments wrong in themselves throw {@link IllegalArgumentException} (or {@link
 * NullPointerException} for null); requests the topology cannot satisfy throw {@link
 * PlacementException}, which names the shard and node at fault.
 */
public final class PlacementPlanner {

  private PlacementPlanner() {}

  /**
   * The first placement: every shard {@code 0 .. shards-1} gets a leader and {@code replicas}
   * replicas on distinct nodes.
   *
   * <p>Guarantees: leaderships per node differ by at most one; every shard has exactly {@code
   * replicas} distinct replicas, none its leader; every shard meets the zone rule (distinct zones
   * when there are at least {@code replicas + 1} zones). Replica memberships per node are brought
   * to at most one apart by moves that keep the zone rule: this is reached whenever no zone is set
   * or all zones have the same number of nodes (checked by the tests for 1 to 12 nodes, up to 4
   * zones, 0 to 2 replicas and up to 1024 shards). With zones of different sizes the zone rule can
   * make it impossible (a node alone in its zone is in every shard when the shard needs every
   * zone); the counts are then as even as the balancer finds. Every shard starts {@code active} at
   * epoch 0.
   *
   * @param nodes the node table by node id
   * @param shards the number of shards, 1 to {@value TopologyMetadata#MAX_SHARDS}
   * @param replicas the number of replicas of each shard, at least 0
   * @throws IllegalArgumentException if {@code shards} or {@code replicas} is out of range
   * @throws PlacementException if there is no node, or fewer than {@code replicas + 1} nodes
   */
  public static Plan initial(Map<String, Node> nodes, int shards, int replicas) {
    if (shards < 1 || shards > TopologyMetadata.MAX_SHARDS) {
      throw new IllegalArgumentException(
          "shards must be between 1 and " + TopologyMetadata.MAX_SHARDS + ", was " + shards);
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be at least 0, was " + replicas);
    }
    if (nodes.isEmpty()) {
      throw new PlacementException("cannot place shards: the node table is empty");
    }
    if (replicas + 1 > nodes.size()) {
      throw new PlacementException(
          replicas
              + " replica(s) per shard need at least "
              + (replicas + 1)
              + " nodes, the node table has "
              + nodes.size());
    }
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, Map.of(), Set.of());
    InitialPlacement.plan(workspace, shards, replicas);
    return PlanAssembler.assemble(
        workspace,
        "initial placement of "
            + shards
            + " shard(s) with "
            + replicas
            + " replica(s) on "
            + nodes.size()
            + " node(s)");
  }

  /**
   * Moves leaderships, then replica slots, onto {@code newNodeId} until it is within one of the
   * most loaded other node; nothing moves between the other nodes (see the class doc for the one
   * exception of the zone rule).
   *
   * <p>Guarantee: when the other nodes' leaderships are at most one apart, the plan moves exactly
   * {@code floor(S / (N + 1))} leaderships for {@code S} assigned shards and {@code N} other nodes
   * (the minimum for a result at most one apart), always from a node with the most, and leaves all
   * leaderships at most one apart. From a skewed map it still moves only onto the new node; {@link
   * #rebalance} evens out the rest. Add nodes one at a time.
   *
   * <p>Replica slots then move to the new node from the nodes with the most, while one holds at
   * least two more than the new node and has a shard the new node can join without breaking the
   * zone rule. Without zones this leaves replica memberships at most one apart when they were
   * before (checked by the tests); with zones the rule may leave them uneven, which {@link
   * #rebalance} then evens out as far as the zones allow. Every shard keeps its replica count.
   *
   * @throws PlacementException if {@code newNodeId} is not in the node table, or the map references
   *     a node that is not
   */
  public static Plan addNode(
      Map<Integer, ShardAssignment> current, Map<String, Node> nodes, String newNodeId) {
    Objects.requireNonNull(newNodeId, "newNodeId");
    requireListed(nodes, newNodeId);
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of());
    NodeAddition.plan(workspace, newNodeId);
    return PlanAssembler.assemble(workspace, "addNode " + newNodeId);
  }

  /**
   * Moves everything {@code nodeId} holds to other nodes, and nothing else: each shard it leads
   * fails over to its replica with the fewest leaderships (a shard without replica goes to the node
   * with the fewest leaderships), each replica slot goes to the least loaded node outside the shard
   * that keeps the zone rule. Shards that do not involve the node are not in the plan. A shard
   * keeps one replica less, with a warning, when no other node is free. Leaderships are not
   * guaranteed to stay at most one apart (only the shard's replicas can take over without moving
   * data); follow with {@link #rebalance} if they must.
   *
   * @param nodeId the node to empty; it may be missing from the node table if the map references it
   * @throws PlacementException if the node is unknown, or it holds shards and no other node exists
   */
  public static Plan removeNode(
      Map<Integer, ShardAssignment> current, Map<String, Node> nodes, String nodeId) {
    Objects.requireNonNull(nodeId, "nodeId");
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of(nodeId));
    requireKnown(workspace, nodeId);
    NodeRemoval.remove(workspace, nodeId);
    return PlanAssembler.assemble(workspace, "removeNode " + nodeId);
  }

  /**
   * Moves one shard's leadership to {@code toNodeId} by the leadership transfer rule: a swap when
   * the node is a replica of the shard (the old leader takes its replica slot), otherwise the node
   * replaces the leader and the old leader leaves the shard, unless the zone rule needs it to take
   * the slot of a same-zone replica. The replica count is unchanged. An empty plan when the node
   * already leads the shard.
   *
   * @throws IllegalArgumentException if {@code shard} is negative
   * @throws PlacementException if the shard is unassigned or the node is not in the node table
   */
  public static Plan moveLeader(
      Map<Integer, ShardAssignment> current, Map<String, Node> nodes, int shard, String toNodeId) {
    Objects.requireNonNull(toNodeId, "toNodeId");
    requireShardId(shard);
    requireListed(nodes, toNodeId);
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of());
    requireAssigned(workspace, shard);
    if (!workspace.leaderOf(shard).equals(toNodeId)) {
      LeadershipTransfer.apply(workspace, shard, toNodeId);
    }
    return PlanAssembler.assemble(workspace, "moveLeader of shard " + shard + " to " + toNodeId);
  }

  /**
   * Fails one shard over: {@code toNodeId} (which must be a replica of it), or when null the
   * replica with the fewest leaderships (ties: smallest id), becomes the leader; the old leader,
   * presumed dead, leaves the shard; the least loaded node outside the shard that keeps the zone
   * rule becomes a replica, so the shard keeps its size. When no such node exists the shard runs
   * with one replica less and the plan warns. The old leader may be missing from the node table.
   *
   * @param toNodeId the replica to promote, or null to let the planner choose
   * @throws IllegalArgumentException if {@code shard} is negative
   * @throws PlacementException if the shard is unassigned, has no replica, or {@code toNodeId} is
   *     not one of its replicas
   */
  public static Plan failoverShard(
      Map<Integer, ShardAssignment> current, Map<String, Node> nodes, int shard, String toNodeId) {
    requireShardId(shard);
    ShardAssignment assignment = current.get(shard);
    if (assignment == null) {
      throw new PlacementException("shard " + shard + " is unassigned", shard, null);
    }
    PlacementWorkspace workspace =
        new PlacementWorkspace(nodes, current, Set.of(assignment.leader()));
    requireReplicas(assignment);
    if (toNodeId != null && !assignment.replicas().contains(toNodeId)) {
      throw new PlacementException(
          "node '"
              + toNodeId
              + "' is not a replica of shard "
              + shard
              + "; its replicas are "
              + assignment.replicas(),
          shard,
          toNodeId);
    }
    NodeRemoval.failover(workspace, shard, toNodeId);
    return PlanAssembler.assemble(workspace, "failover of shard " + shard);
  }

  /**
   * {@link #failoverShard} with a chosen replica for every shard {@code nodeId} leads, in ascending
   * shard order; each choice sees the leaderships given by the previous ones. The node's replica
   * slots are not touched (see {@link #removeNode}).
   *
   * @throws PlacementException if the node is unknown, or some shard it leads has no replica (the
   *     message lists them)
   */
  public static Plan failoverNode(
      Map<Integer, ShardAssignment> current, Map<String, Node> nodes, String nodeId) {
    Objects.requireNonNull(nodeId, "nodeId");
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of(nodeId));
    requireKnown(workspace, nodeId);
    List<Integer> withoutReplica = new ArrayList<>();
    for (int shard : workspace.shardsLedBy(nodeId)) {
      if (workspace.replicasOf(shard).isEmpty()) {
        withoutReplica.add(shard);
      }
    }
    if (!withoutReplica.isEmpty()) {
      throw new PlacementException(
          "node '"
              + nodeId
              + "' leads "
              + withoutReplica.size()
              + " shard(s) without a replica to promote, first "
              + withoutReplica.get(0)
              + "; use removeNode, which gives them new leaders without data",
          withoutReplica.get(0),
          nodeId);
    }
    for (int shard : workspace.shardsLedBy(nodeId)) {
      NodeRemoval.failover(workspace, shard, null);
    }
    return PlanAssembler.assemble(workspace, "failover of node " + nodeId);
  }

  /**
   * Brings leaderships to at most one apart with the fewest leadership moves, then evens out
   * replica memberships.
   *
   * <p>Guarantees: afterwards leaderships per node differ by at most one; the plan moves exactly
   * {@link #minimumLeadershipMoves} leaderships, each from a node above its target to a node below
   * it, by a swap with a replica of the shard when the receiving node is one. Replica slots then
   * move only from nodes above their replica target to nodes below it, never raising a shard's zone
   * excess (best effort with zones).
   *
   * @throws PlacementException if the map references a node that is not in the node table, or
   *     shards are assigned and the node table is empty
   */
  public static Plan rebalance(Map<Integer, ShardAssignment> current, Map<String, Node> nodes) {
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of());
    if (workspace.eligibleNodes().isEmpty()) {
      return PlanAssembler.assemble(workspace, "rebalance");
    }
    LeaderBalancer.balance(workspace);
    ReplicaBalancer.balance(workspace);
    return PlanAssembler.assemble(workspace, "rebalance");
  }

  /**
   * The fewest leadership moves after which leaderships per node of the node table differ by at
   * most one: {@code sum(max(0, leaders - target))} with targets {@code floor(S/N)} or {@code
   * ceil(S/N)}, the larger ones given to the nodes that lead the most. 0 for an empty node table.
   *
   * @throws PlacementException if the map references a node that is not in the node table
   */
  public static int minimumLeadershipMoves(
      Map<Integer, ShardAssignment> current, Map<String, Node> nodes) {
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of());
    return workspace.eligibleNodes().isEmpty() ? 0 : LeaderBalancer.minimumMoves(workspace);
  }

  private static void requireShardId(int shard) {
    if (shard < 0) {
      throw new IllegalArgumentException("shard must be at least 0, was " + shard);
    }
  }

  private static void requireListed(Map<String, Node> nodes, String nodeId) {
    if (!nodes.containsKey(nodeId)) {
      throw new PlacementException("node '" + nodeId + "' is not in the node table", -1, nodeId);
    }
  }

  private static void requireKnown(PlacementWorkspace workspace, String nodeId) {
    if (!workspace.isKnown(nodeId)) {
      throw new PlacementException(
          "node '" + nodeId + "' is neither in the node table nor in the shard map", -1, nodeId);
    }
  }

  private static void requireAssigned(PlacementWorkspace workspace, int shard) {
    if (!workspace.isAssigned(shard)) {
      throw new PlacementException("shard " + shard + " is unassigned", shard, null);
    }
  }

  private static void requireReplicas(ShardAssignment assignment) {
    if (assignment.replicas().isEmpty()) {
      throw new PlacementException(
          "shard "
              + assignment.shard()
              + " has no replica to promote; use moveLeader to give it"
              + " a new leader without its data",
          assignment.shard(),
          assignment.leader());
    }
  }
}
