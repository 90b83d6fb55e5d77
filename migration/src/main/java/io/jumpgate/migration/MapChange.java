package io.jumpgate.migration;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.PlanStep;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One of the admin verbs that move shards ({@code add-node}, {@code remove-node}, {@code
 * move-shard}, {@code rebalance}) as a value that can be planned again from the map at any time:
 * {@link MapChangeMover} plans it, moves the data of every shard whose leader changes, then plans
 * it again and writes the rest (replica slots, node entries) to the map alone.
 *
 * <p>Immutable and thread-safe.
 */
public final class MapChange {

  private final String verb;
  private final String migrationId;
  private final Node addedNode;
  private final boolean finishedByLeaderMoves;
  private final Function<TopologyAdmin, TopologyAdminPlan> planner;

  private MapChange(
      String verb,
      String migrationId,
      Node addedNode,
      boolean finishedByLeaderMoves,
      Function<TopologyAdmin, TopologyAdminPlan> planner) {
    this.verb = verb;
    this.migrationId = migrationId;
    this.addedNode = addedNode;
    this.finishedByLeaderMoves = finishedByLeaderMoves;
    this.planner = planner;
  }

  /** {@code add-node}: the node's entry first, then leaderships and replica slots onto it. */
  public static MapChange addNode(Node node) {
    Objects.requireNonNull(node, "node");
    return new MapChange(
        "add-node " + node.id(),
        id("add-node-" + node.id()),
        node,
        false,
        admin -> admin.planAddNode(node));
  }

  /** {@code remove-node}: its leaderships and replica slots to other nodes, then its entry. */
  public static MapChange removeNode(String nodeId) {
    Objects.requireNonNull(nodeId, "nodeId");
    return new MapChange(
        "remove-node " + nodeId,
        id("remove-node-" + nodeId),
        null,
        false,
        admin -> admin.planRemoveNode(nodeId));
  }

  /**
   * {@code move-shard}: the shard's leadership to a node. With its data moving, the old leader
   * leaves the shard (it does not become a replica, as it does in the map-only swap).
   */
  public static MapChange moveShard(int shard, String toNodeId) {
    Objects.requireNonNull(toNodeId, "toNodeId");
    return new MapChange(
        "move-shard " + shard + " " + toNodeId,
        id("move-shard-" + shard + "-" + toNodeId),
        null,
        true,
        admin -> admin.planMoveShard(shard, toNodeId));
  }

  /** {@code rebalance}: leaderships evened out, then replica slots. */
  public static MapChange rebalance() {
    return new MapChange("rebalance", "rebalance", null, false, TopologyAdmin::planRebalance);
  }

  /** The verb and its arguments, e.g. {@code add-node n3}. */
  public String verb() {
    return verb;
  }

  /**
   * The migration id of this change, the same each time the verb is given the same arguments, so
   * that running the verb again resumes a migration whose mover died.
   */
  public String migrationId() {
    return migrationId;
  }

  /** The node whose entry is written before any shard moves, for {@code add-node}. */
  public Optional<Node> addedNode() {
    return Optional.ofNullable(addedNode);
  }

  /**
   * Whether the leader moves are the whole change ({@code move-shard}): nothing is planned again
   * after them.
   */
  boolean finishedByLeaderMoves() {
    return finishedByLeaderMoves;
  }

  /** The verb's plan from the map as it is now (what the map-only verb would write). */
  public TopologyAdminPlan plan(TopologyAdmin admin) {
    return planner.apply(Objects.requireNonNull(admin, "admin"));
  }

  /**
   * The shards whose leader {@code plan} changes, each as a move from its leader now to its leader
   * after; empty when no leader changes. A shard that had no leader holds no data: it is not moved.
   */
  public static Optional<MovePlan> leaderMoves(TopologyAdminPlan plan, String migrationId) {
    MovePlan.Builder moves = MovePlan.builder(migrationId);
    boolean any = false;
    for (PlanStep step : plan.plan().steps()) {
      if (movesData(step)) {
        moves.move(step.shard(), step.before().leader(), step.after().leader());
        any = true;
      }
    }
    return any ? Optional.of(moves.build()) : Optional.empty();
  }

  /**
   * One line per shard whose data moves while the map lists replicas for it after the change: the
   * mover copies to the new leader only, so those replicas get the data only if their servers
   * replicate the new leader's ({@code REPLICAOF}); the map does not know about server replication
   * yet.
   */
  public static List<String> replicaWarnings(TopologyAdminPlan plan) {
    List<String> warnings = new ArrayList<>();
    int shards = 0;
    String first = null;
    for (PlanStep step : plan.plan().steps()) {
      if (movesData(step) && !step.after().replicas().isEmpty()) {
        shards++;
        if (first == null) {
          first =
              "shard "
                  + step.shard()
                  + " (replicas "
                  + String.join(", ", step.after().replicas())
                  + ")";
        }
      }
    }
    if (shards > 0) {
      warnings.add(
          shards
              + " moved shard(s) list replicas, e.g. "
              + first
              + ": the data is copied to the new leader only; a replica gets it only if its"
              + " server replicates the new leader (REPLICAOF)");
    }
    return warnings;
  }

  /** Whether the step gives a shard that had a leader another one: its data must follow. */
  static boolean movesData(PlanStep step) {
    return step.before() != null && step.leaderChanged();
  }

  /** A migration id from a verb's words: cut, with a hash of the whole, if too long. */
  private static String id(String words) {
    if (words.length() <= 64) {
      return words;
    }
    return words.substring(0, 55) + "-" + String.format("%08x", words.hashCode());
  }

  @Override
  public String toString() {
    return verb;
  }
}
