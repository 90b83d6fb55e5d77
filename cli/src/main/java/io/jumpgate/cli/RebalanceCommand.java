package io.jumpgate.cli;

import io.jumpgate.migration.MapChange;
import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;

/**
 * {@code jumpgate rebalance}: brings leaderships to at most one apart with the fewest moves, then
 * evens out replica slots ({@link io.jumpgate.topology.TopologyAdmin#planRebalance}). Prints the
 * plan, what data moves and an estimate; writes it only with {@code --apply}, the data of every
 * shard whose leader changes moving live ({@link DataMovingCommand}; {@code --map-only} writes the
 * map alone). A balanced map gives an empty plan.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "rebalance",
    description =
        "Evens out leaderships (at most one apart, fewest moves, swaps with replicas where"
            + " possible), then replica slots. Prints the plan and an estimate; --apply carries it"
            + " out, with the data.",
    footer = {
      "",
      "The data moves with the map: each shard whose leader changes is copied live,",
      "frozen for milliseconds and cut over (see docs/operations.md); --map-only",
      "writes the map alone. Running it again resumes an interrupted rebalance.",
      "",
      "Examples:",
      "  jumpgate rebalance --etcd http://127.0.0.1:2379",
      "  jumpgate rebalance --etcd http://127.0.0.1:2379 --apply"
    })
public final class RebalanceCommand extends DataMovingCommand {

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public RebalanceCommand() {
    this(AdminPlanClient::connect);
  }

  RebalanceCommand(AdminPlanClient.Connector connector) {
    this(connector, DataMoveClient::connect, DataMoveClient::estimate);
  }

  RebalanceCommand(
      AdminPlanClient.Connector connector,
      DataMoveClient.Connector dataMover,
      DataMoveClient.Estimator estimator) {
    super(connector, dataMover, estimator);
  }

  @Override
  void checkArguments() {}

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return admin.planRebalance();
  }

  @Override
  MapChange mapChange() {
    return MapChange.rebalance();
  }

  @Override
  boolean appliesAtOnce() {
    return false;
  }
}
