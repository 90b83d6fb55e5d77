package io.jumpgate.topology;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.TopologyAdminPlan.KeyCheck;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The planning half of {@link TopologyAdmin}: from the map as read ({@link TopologyAdminState}) and
 * a verb's arguments to a {@link TopologyAdminPlan} (the {@link PlacementPlanner}'s plan, the node
 * entries added or removed, every key write with the mod revision it was read at, the node entries
 * to check, and how many transactions it takes). Pure: reads and writes nothing, so every rule is
 * testable without etcd. Refuses to touch a shard that a migration owns.
 *
 * <p>Stateless and thread-safe.
 */
final class AdminPlanner {

  private AdminPlanner() {}

  static TopologyAdminPlan initPlan(
      TopologyKeys keys,
      long readRevision,
      Map<String, Node> nodes,
      int shards,
      Plan plan,
      TopologyAdminOptions adminOptions) {
    TopologyMetadata metadata = TopologyMetadata.of(shards);
    List<KeyWrite> writes = TopologyAdminWrites.initWrites(keys, nodes, plan);
    List<NodeChange> nodeChanges = new ArrayList<>();
    new TreeMap<>(nodes).forEach((id, node) -> nodeChanges.add(new NodeChange(id, node)));
    int transactions =
        TopologyAdminWrites.initBatches(
                writes,
                keys,
                adminOptions.maxOperationsPerTransaction(),
                adminOptions.maxBytesPerTransaction())
            .transactions();
    return new TopologyAdminPlan(
        keys.cluster(),
        readRevision,
        0,
        plan,
        metadata,
        nodeChanges,
        writes,
        List.of(),
        transactions);
  }

  /** An add-node's placement and its node entry, before any check of the shards it touches. */
  private record AddNodePlacement(Plan plan, List<NodeChange> nodeChanges) {}

  static TopologyAdminPlan addNodePlan(
      TopologyKeys keys, TopologyAdminState state, Node node, TopologyAdminOptions adminOptions) {
    AddNodePlacement placement = addNodePlacement(state, node);
    return changePlan(keys, state, placement.plan(), placement.nodeChanges(), adminOptions);
  }

  private static AddNodePlacement addNodePlacement(TopologyAdminState state, Node node) {
    Objects.requireNonNull(node, "node");
    Node existing = state.nodes().get(node.id());
    List<NodeChange> nodeChanges = new ArrayList<>();
    Map<String, Node> nodes = new TreeMap<>(state.nodes());
    if (existing == null) {
      nodeChanges.add(new NodeChange(node.id(), node));
      nodes.put(node.id(), node);
    } else if (!existing.equals(node)) {
      throw new PlacementException(
          "node '"
              + node.id()
              + "' is already in the node table, at "
              + existing.address()
              + (existing.zone() == null ? "" : " in zone " + existing.zone())
              + "; remove it first, or add the new node under another id",
          -1,
          node.id());
    }
    return new AddNodePlacement(
        PlacementPlanner.addNode(state.assignments(), nodes, node.id()), nodeChanges);
  }

  static TopologyAdminPlan addNodeEntryPlan(
      TopologyKeys keys, TopologyAdminState state, Node node, TopologyAdminOptions adminOptions) {
    // Only the entry is written: the shards the full add-node would move are not checked, so that
    // the entry can be written (or found written) while those shards still migrate to the node.
    AddNodePlacement withMoves = addNodePlacement(state, node);
    Map<String, PlanSummary.NodeLoad> before = withMoves.plan().summary().loadsBefore();
    Map<String, PlanSummary.NodeLoad> after = new TreeMap<>(before);
    after.putIfAbsent(node.id(), PlanSummary.NodeLoad.NONE);
    Plan plan =
        new Plan(
            "addNodeEntry " + node.id(),
            List.of(),
            new PlanSummary(0, 0, 0, before, after),
            List.of());
    return changePlan(keys, state, plan, withMoves.nodeChanges(), adminOptions);
  }

  static TopologyAdminPlan removeNodePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      String nodeId,
      TopologyAdminOptions adminOptions) {
    Objects.requireNonNull(nodeId, "nodeId");
    for (ShardAssignment assignment : state.assignments().values()) {
      if (assignment.migration() != null && assignment.migration().to().equals(nodeId)) {
        throw migrating(assignment);
      }
    }
    String key = keys.node(nodeId);
    boolean keyExists = state.modRevision(key) > 0;
    boolean inMap =
        state.assignments().values().stream().anyMatch(assignment -> assignment.involves(nodeId));
    Plan plan;
    if (!inMap && keyExists && !state.nodes().containsKey(nodeId)) {
      // An entry that does not decode and that no shard names: only the key goes.
      plan =
          new Plan(
              "removeNode " + nodeId,
              List.of(),
              new PlanSummary(0, 0, 0, Map.of(), Map.of()),
              List.of());
    } else {
      plan = PlacementPlanner.removeNode(state.assignments(), state.nodes(), nodeId);
    }
    List<NodeChange> nodeChanges =
        keyExists ? List.of(new NodeChange(nodeId, null)) : List.<NodeChange>of();
    return changePlan(keys, state, plan, nodeChanges, adminOptions);
  }

  static TopologyAdminPlan moveShardPlan(
      TopologyKeys keys,
      TopologyAdminState state,
      int shard,
      String toNodeId,
      TopologyAdminOptions adminOptions) {
    requireShardInRange(state, shard);
    requireNotMigrating(state, shard);
    Plan plan = PlacementPlanner.moveLeader(state.assignments(), state.nodes(), shard, toNodeId);
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  static TopologyAdminPlan failoverShardPlan(
      TopologyKeys keys,
      TopologyAdminState state,
      int shard,
      String toNodeIdOrNull,
      TopologyAdminOptions adminOptions) {
    requireShardInRange(state, shard);
    requireNotMigrating(state, shard);
    Plan plan =
        PlacementPlanner.failoverShard(state.assignments(), state.nodes(), shard, toNodeIdOrNull);
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  static TopologyAdminPlan failoverNodePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      String nodeId,
      String toNodeIdOrNull,
      TopologyAdminOptions adminOptions) {
    Plan plan =
        toNodeIdOrNull == null
            ? PlacementPlanner.failoverNode(state.assignments(), state.nodes(), nodeId)
            : failoverNodeTo(state.assignments(), state.nodes(), nodeId, toNodeIdOrNull);
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  static TopologyAdminPlan rebalancePlan(
      TopologyKeys keys, TopologyAdminState state, TopologyAdminOptions adminOptions) {
    Plan plan = PlacementPlanner.rebalance(state.assignments(), state.nodes());
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  /**
   * {@link PlacementPlanner#failoverNode} with one chosen node: every shard {@code nodeId} leads
   * fails over to {@code toNodeId}, which must be a replica of each, with the planner's rules for
   * the freed replica slot.
   */
  static Plan failoverNodeTo(
      Map<Integer, ShardAssignment> current,
      Map<String, Node> nodes,
      String nodeId,
      String toNodeId) {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(toNodeId, "toNodeId");
    if (nodeId.equals(toNodeId)) {
      throw new IllegalArgumentException("cannot fail node '" + nodeId + "' over to itself");
    }
    if (!nodes.containsKey(toNodeId)) {
      throw new PlacementException(
          "node '" + toNodeId + "' is not in the node table", -1, toNodeId);
    }
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of(nodeId));
    if (!workspace.isKnown(nodeId)) {
      throw new PlacementException(
          "node '" + nodeId + "' is neither in the node table nor in the shard map", -1, nodeId);
    }
    List<Integer> led = workspace.shardsLedBy(nodeId);
    List<Integer> notReplica = new ArrayList<>();
    for (int shard : led) {
      if (!workspace.replicasOf(shard).contains(toNodeId)) {
        notReplica.add(shard);
      }
    }
    if (!notReplica.isEmpty()) {
      throw new PlacementException(
          "node '"
              + toNodeId
              + "' is not a replica of "
              + notReplica.size()
              + " of the "
              + led.size()
              + " shard(s) that '"
              + nodeId
              + "' leads, first shard "
              + notReplica.get(0)
              + "; fail over without a target to let the planner pick a replica per shard",
          notReplica.get(0),
          toNodeId);
    }
    for (int shard : led) {
      NodeRemoval.failover(workspace, shard, toNodeId);
    }
    return PlanAssembler.assemble(workspace, "failover of node " + nodeId + " to " + toNodeId);
  }

  private static TopologyAdminPlan changePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      Plan plan,
      List<NodeChange> nodeChanges,
      TopologyAdminOptions adminOptions) {
    for (PlanStep step : plan.steps()) {
      requireNotMigrating(state, step.shard());
    }
    Plan withWarnings = withInvalidEntryWarning(plan, state.invalidEntries());
    List<KeyWrite> writes = TopologyAdminWrites.planWrites(keys, state, plan, nodeChanges);
    List<KeyCheck> checks = TopologyAdminWrites.planChecks(keys, state, writes);
    int transactions =
        TopologyAdminWrites.batches(
                keys,
                writes,
                checks,
                adminOptions.maxOperationsPerTransaction(),
                adminOptions.maxBytesPerTransaction())
            .size();
    return new TopologyAdminPlan(
        keys.cluster(),
        state.revision(),
        state.mapRevision(),
        withWarnings,
        null,
        nodeChanges,
        writes,
        checks,
        transactions);
  }

  private static Plan withInvalidEntryWarning(Plan plan, List<InvalidEntry> invalid) {
    if (invalid.isEmpty()) {
      return plan;
    }
    List<String> warnings = new ArrayList<>(plan.warnings());
    InvalidEntry first = invalid.get(0);
    warnings.add(
        invalid.size()
            + " invalid entr"
            + (invalid.size() == 1 ? "y" : "ies")
            + " in the map, left as they are unless the plan rewrites them; first "
            + first.key()
            + ": "
            + first.reason());
    return new Plan(plan.operation(), plan.steps(), plan.summary(), warnings);
  }

  /**
   * A migrating or frozen shard is the mover's: the admin's verbs refuse to change it.
   *
   * @throws PlacementException naming the shard, its state, the migration and its target
   */
  private static void requireNotMigrating(TopologyAdminState state, int shard) {
    ShardAssignment assignment = state.assignments().get(shard);
    if (assignment != null && assignment.migration() != null) {
      throw migrating(assignment);
    }
  }

  private static PlacementException migrating(ShardAssignment assignment) {
    return new PlacementException(
        "shard "
            + assignment.shard()
            + " is "
            + assignment.state().wireName()
            + " (migration '"
            + assignment.migration().id()
            + "' to node '"
            + assignment.migration().to()
            + "'): it cannot be changed until that migration is finished or aborted",
        assignment.shard(),
        assignment.migration().to());
  }

  private static void requireShardInRange(TopologyAdminState state, int shard) {
    int shards = state.metadata().shards();
    if (shard < 0 || shard >= shards) {
      throw new IllegalArgumentException(
          "shard "
              + shard
              + " is out of range: cluster '"
              + state.cluster()
              + "' has shards 0 to "
              + (shards - 1));
    }
  }
}
