package io.jumpgate.cli;

import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jumpgate failover (--shard S | --node ID) [--to NODE]}: a replica takes over from a leader
 * presumed dead ({@link io.jumpgate.topology.TopologyAdmin#planFailoverShard}, {@link
 * io.jumpgate.topology.TopologyAdmin#planFailoverNode}). {@code --shard} changes one shard and is
 * applied at once; {@code --node} changes every shard the node leads, so it prints the plan and
 * writes it only with {@code --apply}.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "failover",
    description =
        "Promotes a replica of a shard (--shard, applied at once) or of every shard a node leads"
            + " (--node: prints the plan, --apply writes it); the old leader leaves the shard.",
    footer = {
      "",
      "--to NODE picks the replica to promote: a replica of the shard (with --node,",
      "of every shard the node leads). Without it, the replica with the fewest",
      "leaderships. --node leaves the node's replica slots: remove-node hands those",
      "over too.",
      "",
      "Examples:",
      "  jumpgate failover --shard 17 --etcd http://127.0.0.1:2379",
      "  jumpgate failover --node node-b --etcd http://127.0.0.1:2379 --apply"
    })
public final class FailoverCommand extends AdminPlanCommand {

  @Option(names = "--shard", paramLabel = "S", description = "The shard to fail over.")
  private String shardValue;

  @Option(
      names = "--node",
      paramLabel = "ID",
      description = "The node whose every shard fails over.")
  private String nodeValue;

  @Option(names = "--to", paramLabel = "NODE", description = "The replica to promote.")
  private String toValue;

  private int shard = -1;
  private String node;
  private String to;

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public FailoverCommand() {
    this(AdminPlanClient::connect);
  }

  FailoverCommand(AdminPlanClient.Connector connector) {
    super(connector);
  }

  @Override
  void checkArguments() {
    if (shardValue != null && nodeValue != null) {
      throw usage("--shard and --node cannot be used together: give one of them");
    }
    if (shardValue == null && nodeValue == null) {
      throw usage("give --shard S or --node ID: what to fail over");
    }
    to = toValue == null ? null : nodeIdArgument("--to", toValue);
    if (shardValue != null) {
      shard = shardArgument("--shard", shardValue);
      return;
    }
    node = nodeIdArgument("--node", nodeValue);
    if (node.equals(to)) {
      throw usage("--to must name another node than --node, was '" + to + "' for both");
    }
  }

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return node == null ? admin.planFailoverShard(shard, to) : admin.planFailoverNode(node, to);
  }

  @Override
  boolean appliesAtOnce() {
    return node == null;
  }
}
