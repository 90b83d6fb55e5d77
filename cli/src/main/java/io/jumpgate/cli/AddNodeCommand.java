package io.jumpgate.cli;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jumpgate add-node id=host:port[@zone]}: adds a node and moves leaderships, then replica
 * slots, onto it until it is within one of the most loaded node ({@link
 * io.jumpgate.topology.TopologyAdmin#planAddNode}). Prints the plan; writes it only with {@code
 * --apply}. Adding a node that is in the table at the same address plans only the moves still
 * missing, which finishes an interrupted add-node.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "add-node",
    description =
        "Adds a node and moves leaderships and replicas onto it, about shards / (nodes + 1) of"
            + " each. Prints the plan; --apply writes it.",
    footer = {
      "",
      "Only the map changes: the new node needs the data of the shards it receives",
      "(see docs/operations.md). Nothing moves between the other nodes: rebalance",
      "does that. Adding a node again at the same address finishes an interrupted",
      "add-node.",
      "",
      "Examples:",
      "  jumpgate add-node node-d=10.0.0.8:6379@az1 --etcd http://127.0.0.1:2379",
      "  jumpgate add-node node-d=10.0.0.8:6379@az1 --apply --etcd http://10.0.0.2:2379"
    })
public final class AddNodeCommand extends AdminPlanCommand {

  @Parameters(
      index = "0",
      paramLabel = "NODE",
      description = "The node to add: id=host:port[@zone], e.g. node-d=10.0.0.8:6379@az1.")
  private String nodeSpec;

  private Node node;

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public AddNodeCommand() {
    this(AdminPlanClient::connect);
  }

  AddNodeCommand(AdminPlanClient.Connector connector) {
    super(connector);
  }

  @Override
  void checkArguments() {
    try {
      node = NodeSpec.parse(nodeSpec);
    } catch (IllegalArgumentException e) {
      throw usage("NODE " + e.getMessage());
    }
  }

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return admin.planAddNode(node);
  }

  @Override
  boolean appliesAtOnce() {
    return false;
  }
}
