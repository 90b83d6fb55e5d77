package io.jumpgate.cli;

import io.jumpgate.migration.MapChange;
import io.jumpgate.spi.Node;
import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jumpgate add-node id=host:port[@zone]}: adds a node and moves leaderships, then replica
 * slots, onto it until it is within one of the most loaded node ({@link
 * io.jumpgate.topology.TopologyAdmin#planAddNode}). Prints the plan, what data moves and an
 * estimate of it; writes it only with {@code --apply}: the node's entry first, then the data of
 * every shard it comes to lead moves live ({@link DataMovingCommand}; {@code --map-only} writes the
 * map alone). Adding a node that is in the table at the same address plans only the moves still
 * missing, and resumes the data move of an add-node whose mover died.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "add-node",
    description =
        "Adds a node and moves leaderships and replicas onto it, about shards / (nodes + 1) of"
            + " each, with the data of the shards it comes to lead. Prints the plan and an"
            + " estimate; --apply carries it out.",
    footer = {
      "",
      "The data moves with the map: each shard the node comes to lead is copied live",
      "from its leader, frozen for milliseconds and cut over (see docs/operations.md).",
      "--map-only writes the map alone, for servers that move their data themselves.",
      "Replica slots change in the map only. Nothing moves between the other nodes:",
      "rebalance does that. Running it again at the same address finishes or resumes",
      "an interrupted add-node.",
      "",
      "Examples:",
      "  jumpgate add-node node-d=10.0.0.8:6379@az1 --etcd http://127.0.0.1:2379",
      "  jumpgate add-node node-d=10.0.0.8:6379@az1 --apply --etcd http://10.0.0.2:2379",
      "  jumpgate add-node node-d=10.0.0.8:6379@az1 --apply --map-only --etcd ..."
    })
public final class AddNodeCommand extends DataMovingCommand {

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
    this(connector, DataMoveClient::connect, DataMoveClient::estimate);
  }

  AddNodeCommand(
      AdminPlanClient.Connector connector,
      DataMoveClient.Connector dataMover,
      DataMoveClient.Estimator estimator) {
    super(connector, dataMover, estimator);
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
  MapChange mapChange() {
    return MapChange.addNode(node);
  }

  @Override
  boolean appliesAtOnce() {
    return false;
  }
}
