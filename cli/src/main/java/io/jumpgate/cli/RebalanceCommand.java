package io.jumpgate.cli;

import io.jumpgate.topology.TopologyAdminPlan;
import picocli.CommandLine.Command;

/**
 * {@code jumpgate rebalance}: brings leaderships to at most one apart with the fewest moves, then
 * evens out replica slots ({@link io.jumpgate.topology.TopologyAdmin#planRebalance}). Prints the
 * plan; writes it only with {@code --apply}. A balanced map gives an empty plan.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "rebalance",
    description =
        "Evens out leaderships (at most one apart, fewest moves, swaps with replicas where"
            + " possible), then replica slots. Prints the plan; --apply writes it.",
    footer = {
      "",
      "Examples:",
      "  jumpgate rebalance --etcd http://127.0.0.1:2379",
      "  jumpgate rebalance --etcd http://127.0.0.1:2379 --apply"
    })
public final class RebalanceCommand extends AdminPlanCommand {

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public RebalanceCommand() {
    this(AdminPlanClient::connect);
  }

  RebalanceCommand(AdminPlanClient.Connector connector) {
    super(connector);
  }

  @Override
  void checkArguments() {}

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return admin.planRebalance();
  }

  @Override
  boolean appliesAtOnce() {
    return false;
  }
}
