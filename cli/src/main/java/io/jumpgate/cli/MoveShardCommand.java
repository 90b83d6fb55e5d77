package io.jumpgate.cli;

import io.jumpgate.migration.MapChange;
import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jumpgate move-shard SHARD --to NODE}: moves one shard's leadership ({@link
 * io.jumpgate.topology.TopologyAdmin#planMoveShard}): a swap when the node is a replica of the
 * shard, else the node replaces the leader. Changes one shard, so it is applied at once: its data
 * moves live to the node ({@link DataMovingCommand}; the old leader then leaves the shard), or with
 * {@code --map-only} the map alone changes. Prints the change, an estimate and the outcome.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "move-shard",
    description =
        "Moves a shard's leadership to a node, with its data; the epoch goes up by one."
            + " Applied at once.",
    footer = {
      "",
      "The data moves with the map: copied live to the node, frozen for milliseconds",
      "and cut over; the old leader leaves the shard (see docs/operations.md).",
      "--map-only writes the map alone (a swap if the node is one of its replicas),",
      "for a node that holds the data already. --dry-run prints the change and the",
      "estimate without writing anything.",
      "",
      "Examples:",
      "  jumpgate move-shard 17 --to node-d --etcd http://127.0.0.1:2379",
      "  jumpgate move-shard 17 --to node-d --dry-run --etcd http://127.0.0.1:2379",
      "  jumpgate move-shard 17 --to node-d --map-only --etcd http://127.0.0.1:2379"
    })
public final class MoveShardCommand extends DataMovingCommand {

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
    this(connector, DataMoveClient::connect, DataMoveClient::estimate);
  }

  MoveShardCommand(
      AdminPlanClient.Connector connector,
      DataMoveClient.Connector dataMover,
      DataMoveClient.Estimator estimator) {
    super(connector, dataMover, estimator);
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
  MapChange mapChange() {
    return MapChange.moveShard(shard, to);
  }

  @Override
  boolean appliesAtOnce() {
    return true;
  }
}
