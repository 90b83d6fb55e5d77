package io.jumpgate.cli;

import io.jumpgate.migration.MapChange;
import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jumpgate remove-node ID}: fails over every shard the node leads, hands its replica slots
 * to other nodes, and deletes its entry last ({@link
 * io.jumpgate.topology.TopologyAdmin#planRemoveNode}). Prints the plan, what data moves and an
 * estimate of it; writes it only with {@code --apply}: the data of every shard the node leads moves
 * live to its new leader ({@link DataMovingCommand}; {@code --map-only} writes the map alone), then
 * the replica slots and the node's entry are written.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "remove-node",
    description =
        "Removes a node: the shards it leads move with their data to other nodes, its replica"
            + " slots go to other nodes, its entry is deleted last. Prints the plan and an"
            + " estimate; --apply carries it out.",
    footer = {
      "",
      "The data moves with the map: each shard the node leads is copied live to its",
      "new leader, frozen for milliseconds and cut over (see docs/operations.md).",
      "--map-only writes the map alone (a replica takes over without a copy), for",
      "servers that move their data themselves or a node that is gone. Running it",
      "again resumes an interrupted remove-node. Follow with rebalance if the",
      "leaderships must be even again.",
      "",
      "Examples:",
      "  jumpgate remove-node node-b --etcd http://127.0.0.1:2379",
      "  jumpgate remove-node node-b --etcd http://127.0.0.1:2379 --apply"
    })
public final class RemoveNodeCommand extends DataMovingCommand {

  @Parameters(index = "0", paramLabel = "ID", description = "The id of the node to remove.")
  private String nodeIdValue;

  private String nodeId;

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public RemoveNodeCommand() {
    this(AdminPlanClient::connect);
  }

  RemoveNodeCommand(AdminPlanClient.Connector connector) {
    this(connector, DataMoveClient::connect, DataMoveClient::estimate);
  }

  RemoveNodeCommand(
      AdminPlanClient.Connector connector,
      DataMoveClient.Connector dataMover,
      DataMoveClient.Estimator estimator) {
    super(connector, dataMover, estimator);
  }

  @Override
  void checkArguments() {
    nodeId = nodeIdArgument("ID", nodeIdValue);
  }

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return admin.planRemoveNode(nodeId);
  }

  @Override
  MapChange mapChange() {
    return MapChange.removeNode(nodeId);
  }

  @Override
  boolean appliesAtOnce() {
    return false;
  }
}
