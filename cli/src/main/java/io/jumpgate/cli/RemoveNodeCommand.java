package io.jumpgate.cli;

import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jumpgate remove-node ID}: fails over every shard the node leads, hands its replica slots
 * to other nodes, and deletes its entry last ({@link
 * io.jumpgate.topology.TopologyAdmin#planRemoveNode}). Prints the plan; writes it only with {@code
 * --apply}.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "remove-node",
    description =
        "Removes a node: its shards fail over to their replicas, its replica slots go to other"
            + " nodes, its entry is deleted last. Prints the plan; --apply writes it.",
    footer = {
      "",
      "Follow with rebalance if the leaderships must be even again.",
      "",
      "Examples:",
      "  jumpgate remove-node node-b --etcd http://127.0.0.1:2379",
      "  jumpgate remove-node node-b --etcd http://127.0.0.1:2379 --apply"
    })
public final class RemoveNodeCommand extends AdminPlanCommand {

  @Parameters(index = "0", paramLabel = "ID", description = "The id of the node to remove.")
  private String nodeIdValue;

  private String nodeId;

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public RemoveNodeCommand() {
    this(AdminPlanClient::connect);
  }

  RemoveNodeCommand(AdminPlanClient.Connector connector) {
    super(connector);
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
  boolean appliesAtOnce() {
    return false;
  }
}
