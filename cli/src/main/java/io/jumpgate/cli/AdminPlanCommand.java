package io.jumpgate.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.PlacementException;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminPlan;
import io.jumpgate.topology.TopologyAdminResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What the admin verbs ({@code init}, {@code add-node}, {@code remove-node}, {@code move-shard},
 * {@code failover}, {@code rebalance}) share: the etcd options, {@code --apply}, {@code --dry-run}
 * and {@code --json}, and the way a plan is printed and applied.
 *
 * <p>A verb checks its arguments (usage errors, exit code 2, before etcd is contacted), then asks a
 * {@link TopologyAdmin} for a plan, prints it ({@link TopologyAdminPlan#describe()}) and:
 *
 * <ul>
 *   <li>a verb that changes one shard ({@code move-shard}, {@code failover --shard}) or creates a
 *       cluster ({@code init}, whose plan is printed as a summary, without one line per shard)
 *       applies it at once;
 *   <li>a verb that may change many shards ({@code add-node}, {@code remove-node}, {@code failover
 *       --node}, {@code rebalance}) applies it only with {@code --apply}, whatever the plan's size;
 *       without, it only prints the plan.
 * </ul>
 *
 * <p>{@code --dry-run} prints the plan of any verb and writes nothing. Applying prints a line per
 * committed transaction when there are several, then the final revision. A plan that changes
 * nothing writes nothing. With {@code --json} the verb prints one document instead: {@code
 * {"plan":<TopologyAdminPlan>,"applied":true|false,"result":<TopologyAdminResult>|null}}, written
 * by {@link AdminPlanJson} (shard states in their wire names, the placement change named {@code
 * placement}); the verbs whose data moves ({@link DataMovingCommand}) add {@code "mapOnly"}, {@code
 * "dataMove"} (the shards whose data moves, warnings, the estimate) and {@code "move"} (what the
 * mover did), and their {@code result} is what was written to the map alone after the moves.
 *
 * <p>Failures are those of {@link TopologyAdmin}, reported on one line by {@link ErrorReporter}
 * with exit code 1: a lost compare-and-set is "the map changed since it was read (revision R); run
 * again" (with how many transactions were applied when a batched plan loses after the first). An
 * argument that the map rejects (a shard out of its range) is reported the same way. {@code
 * --timeout} bounds each etcd call.
 *
 * <p>{@code --topology-file}, which the reading verbs accept, is refused with a usage error: the
 * admin verbs change etcd.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
abstract class AdminPlanCommand implements Callable<Integer> {

  private static final ObjectMapper JSON = AdminPlanJson.MAPPER;

  @Spec CommandSpec spec;

  @Mixin EtcdOptions etcd;

  @Option(
      names = "--apply",
      description =
          "Carry the plan out (with the data, for the verbs that move it, unless --map-only)."
              + " Needed by add-node, remove-node, failover --node and rebalance, which only"
              + " print their plan without it; the other verbs apply at once.")
  boolean apply;

  @Option(names = "--dry-run", description = "Only print the plan: write nothing.")
  boolean dryRun;

  @Option(
      names = "--json",
      description =
          "Print one JSON document instead of text: {\"plan\":..,\"applied\":..,\"result\":..}.")
  boolean json;

  /** Accepted only to be refused by name: the admin verbs write etcd, not a file. */
  @Option(names = "--topology-file", paramLabel = "FILE", hidden = true)
  Path topologyFile;

  private final AdminPlanClient.Connector connector;

  AdminPlanCommand(AdminPlanClient.Connector connector) {
    this.connector = Objects.requireNonNull(connector, "connector");
  }

  /**
   * Checks the verb's own arguments before etcd is contacted.
   *
   * @throws ParameterException naming the option or argument at fault
   */
  abstract void checkArguments();

  /** Reads the map and plans the change. */
  abstract TopologyAdminPlan plan(AdminPlanClient admin);

  /** Whether the plan is applied without {@code --apply}: the verb changes one shard, or inits. */
  abstract boolean appliesAtOnce();

  /** Whether the plan is printed without its per-shard lines ({@code init}). */
  boolean printsSummaryOnly() {
    return false;
  }

  /** Checks the options of a verb whose data moves; nothing for the others. */
  void checkDataMoveArguments() {}

  /** The verb whose data moves with this run (not {@code --map-only}); null for the others. */
  DataMovingCommand dataMoving() {
    return null;
  }

  @Override
  public final Integer call() {
    if (topologyFile != null) {
      throw usage(
          "--topology-file cannot be used with "
              + spec.name()
              + ", which changes the map in etcd: give --etcd URL[,URL...] (or set "
              + EtcdOptions.ENDPOINTS_VARIABLE
              + ")");
    }
    if (apply && dryRun) {
      throw usage("--apply and --dry-run cannot be used together: give one of them");
    }
    checkDataMoveArguments();
    checkArguments();
    EtcdTopologyOptions options =
        etcd.toOptions(spec, JumpgateCli.environment(spec))
            .mutate()
            .requestTimeout(etcd.timeout(spec))
            .build();
    PrintWriter out = spec.commandLine().getOut();
    try (AdminPlanClient admin = connector.connect(options)) {
      boolean writing = !dryRun && (apply || appliesAtOnce());
      TopologyAdminPlan plan;
      try {
        plan = plan(admin);
      } catch (PlacementException e) {
        // Shards still marked migrating by this verb's own migration, left by a mover that
        // stopped before their cutover ("run the same command again" is what it told the user):
        // the mover resumes that migration, then plans the rest again. Otherwise a refusal.
        DataMovingCommand verb = dataMoving();
        if (!writing || verb == null || !admin.hasMigrationRecord(verb.mapChange().migrationId())) {
          throw e;
        }
        plan = null;
      } catch (IllegalArgumentException e) {
        // The admin's range checks against the map read (a shard beyond the cluster's count).
        throw new PlacementException(e.getMessage());
      }
      boolean nothingPlanned = plan == null || plan.changesNothing();
      // A plan that changes nothing may still have a migration to finish: its mover stopped after
      // the last cutover (cleanup left), so the map already shows the change.
      DataMovingCommand unfinished =
          nothingPlanned && writing && dataMoving() != null ? dataMoving() : null;
      boolean resuming =
          unfinished != null && admin.hasMigrationRecord(unfinished.mapChange().migrationId());
      boolean write = (!nothingPlanned || resuming) && writing;
      DataMovingCommand moving = nothingPlanned && !resuming ? null : dataMoving();
      DataMovePlan data = moving == null ? null : DataMovePlan.of(moving, admin, plan);
      if (!json) {
        if (plan != null) {
          printLines(out, printsSummaryOnly() ? summary(plan) : plan.describe());
        }
        if (resuming) {
          out.println(
              "migration "
                  + moving.mapChange().migrationId()
                  + " was left unfinished by a mover that stopped: finishing it");
        } else if (data != null) {
          printLines(out, data.describe());
        }
      }
      TopologyAdminResult result = null;
      DataMovePlan.Outcome moved = null;
      if (write && data != null) {
        moved = data.carryOut(moving, options, out, json);
        result = moved.result().mapOnly();
      } else if (write) {
        TopologyAdmin.Progress progress =
            json || plan.transactions() <= 1
                ? TopologyAdmin.Progress.NONE
                : (transaction, transactions, revision) -> {
                  out.println(
                      "transaction "
                          + transaction
                          + " of "
                          + transactions
                          + " committed at revision "
                          + revision);
                  out.flush();
                };
        result = admin.apply(plan, progress);
      }
      if (json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("plan", plan);
        document.put("applied", result != null || moved != null);
        document.put("result", result);
        if (this instanceof DataMovingCommand) {
          document.put("mapOnly", moving == null);
          document.put("dataMove", data == null ? null : data.toJson());
          document.put("move", moved == null ? null : moved.toJson());
        }
        JsonOutput.writeLine(out, generator -> JSON.writeValue(generator, document));
      } else if (moved != null) {
        printLines(out, moved.describe());
      } else if (result != null) {
        out.println(outcome(plan, result));
      } else if (!nothingPlanned) {
        out.println(
            dryRun
                ? "dry run: nothing written"
                : "nothing written: run again with --apply to apply it (it is planned again from"
                    + " the map as it is then)");
      }
      out.flush();
      if (moved != null) {
        moved.throwIfIncomplete();
      }
      return ExitCodes.OK;
    }
  }

  /** The last line after applying. */
  static String outcome(TopologyAdminPlan plan, TopologyAdminResult result) {
    StringBuilder line = new StringBuilder();
    if (plan.initialises()) {
      line.append("cluster '")
          .append(result.cluster())
          .append("' initialised at revision ")
          .append(result.revision())
          .append(": ")
          .append(plan.metadata().shards())
          .append(" shards on ")
          .append(plan.nodeChanges().size())
          .append(" node(s), ")
          .append(result.keysWritten())
          .append(" key(s) in ")
          .append(result.transactions())
          .append(" transaction(s)");
      if (result.leftoverKeysDeleted() > 0) {
        line.append("; deleted ")
            .append(result.leftoverKeysDeleted())
            .append(" key(s) left by an interrupted init");
      }
      return line.toString();
    }
    return line.append("applied at revision ")
        .append(result.revision())
        .append(": ")
        .append(result.keysWritten())
        .append(" key(s) in ")
        .append(result.transactions())
        .append(" transaction(s), planned at revision ")
        .append(result.readRevision())
        .toString();
  }

  /**
   * {@link TopologyAdminPlan#describe()} without one line per shard: the line that says where the
   * map was read, the planner's headline, then its warnings, node loads, node entries, meta and
   * transactions.
   */
  static List<String> summary(TopologyAdminPlan plan) {
    List<String> lines = new ArrayList<>(plan.describe());
    int steps = plan.plan().steps().size();
    // describe(): [where it was read, headline, one line per step, ...]
    if (steps > 0 && lines.size() >= 2 + steps) {
      lines.subList(2, 2 + steps).clear();
    }
    return lines;
  }

  static void printLines(PrintWriter out, List<String> lines) {
    for (String line : lines) {
      out.println(line);
    }
    out.flush();
  }

  /** A usage error of this verb. */
  ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * A shard number argument, 0 to {@value TopologyMetadata#MAX_SHARDS} - 1; whether the cluster has
   * that shard is the admin's to check.
   *
   * @param name the option or argument, e.g. {@code SHARD} or {@code --shard}
   */
  int shardArgument(String name, String value) {
    return OptionValues.intInRange(spec, name, value, 0, TopologyMetadata.MAX_SHARDS - 1);
  }

  /**
   * A node id argument, checked against {@link Node#ID_PATTERN}; whether the node exists is the
   * admin's to check.
   *
   * @param name the option or argument, e.g. {@code ID} or {@code --to}
   */
  String nodeIdArgument(String name, String value) {
    if (!Node.ID_PATTERN.matcher(value).matches()) {
      throw usage(name + " must be a node id (1 to 64 of A-Z a-z 0-9 . _ -), was '" + value + "'");
    }
    return value;
  }
}
