package io.jumpgate.cli;

import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jumpgate move-shard SHARD --to NODE}: moves one shard's leadership ({@link
 * io.jumpgate.topology.TopologyAdmin#planMoveShard}): a swap when the node is a replica of the
 * shard, else the node replaces the leader. Changes one shard, so it is applied at once; prints the
 * change and the revision.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "move-shard",
    description =
        "Moves a shard's leadership to a node (a swap if the node is one of its replicas); the"
            + " epoch goes up by one. Applied at once.",
    footer = {
      "",
      "Only the map changes: the node must hold the shard's data first (see",
      "docs/operations.md). --dry-run prints the change without writing it.",
      "",
      "Examples:",
      "  jumpgate move-shard 17 --to node-d --etcd http://127.0.0.1:2379",
      "  jumpgate move-shard 17 --to node-d --dry-run --etcd http://127.0.0.1:2379"
    })
public final class MoveShardCommand extends AdminPlanCommand {

  @Parameters(index = "0", paramLabel = "SHARD", description = "The shard, 0 to shards - 1.")
  private String shardValue;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "NODE",
      description = "The node that becomes the shard's leader.")
  private String toValue;

  private int shard;
  private String to;

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public MoveShardCommand() {
    this(AdminPlanClient::connect);
  }

  MoveShardCommand(AdminPlanClient.Connector connector) {
    super(connector);
  }

  @Override
  void checkArguments() {
    shard = shardArgument("SHARD", shardValue);
    to = nodeIdArgument("--to", toValue);
  }

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return admin.planMoveShard(shard, to);
  }

  @Override
  boolean appliesAtOnce() {
    return true;
  }
}
