package io.jumpgate.cli.demo;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The summary the demo prints at the end: the workload's commands by type and outcome with their
 * p99 (each command once, as the application counts them), then the driver's Micrometer meters (see
 * docs/metrics.md) since a baseline: the parts of split commands, retries by reason, redirects,
 * topology updates, connections; and the commands each node served.
 *
 * <p>Stateless; reads the registry when called.
 */
final class MetricsSummary {

  static final String COMMANDS = "jumpgate.commands";
  static final String NODE_COMMANDS = "jumpgate.node.commands";
  static final String RETRIES = "jumpgate.retries";
  static final String REDIRECTS = "jumpgate.redirects";
  static final String FANOUT_NODES = "jumpgate.fanout.nodes";

  private MetricsSummary() {}

  /** Commands that each node served ({@value #NODE_COMMANDS}, both outcomes), by node id. */
  static Map<String, Long> commandsByNode(MeterRegistry registry) {
    Map<String, Long> counts = new TreeMap<>();
    for (Timer timer : registry.find(NODE_COMMANDS).timers()) {
      counts.merge(timer.getId().getTag("node"), timer.count(), Long::sum);
    }
    return counts;
  }

  /**
   * The driver's counts at one moment, so that the summary shows what happened after it (the
   * measured workload, not its warm-up).
   *
   * @param partsByCommand {@value #COMMANDS} counts by {@code command} tag, both outcomes
   * @param retriesByReason {@code jumpgate.retries} by {@code reason}
   * @param redirects {@code jumpgate.redirects}
   * @param splits {@code jumpgate.fanout.nodes} count: multi-key commands split by node
   * @param parts {@code jumpgate.fanout.nodes} total: the parts of those splits
   * @param commandsByNode {@value #NODE_COMMANDS} counts by node id ({@link #commandsByNode})
   */
  record Baseline(
      Map<String, Long> partsByCommand,
      Map<String, Double> retriesByReason,
      double redirects,
      long splits,
      double parts,
      Map<String, Long> commandsByNode) {}

  /** The driver's counts now. */
  static Baseline baseline(MeterRegistry registry) {
    Map<String, Long> parts = new TreeMap<>();
    for (Timer timer : registry.find(COMMANDS).timers()) {
      parts.merge(timer.getId().getTag("command"), timer.count(), Long::sum);
    }
    DistributionSummary fanOut = registry.find(FANOUT_NODES).summary();
    return new Baseline(
        parts,
        retriesByReason(registry),
        counter(registry, REDIRECTS),
        fanOut == null ? 0 : fanOut.count(),
        fanOut == null ? 0 : fanOut.totalAmount(),
        commandsByNode(registry));
  }

  private static Map<String, Double> retriesByReason(MeterRegistry registry) {
    Map<String, Double> retries = new TreeMap<>();
    for (Counter counter : registry.find(RETRIES).counters()) {
      retries.merge(counter.getId().getTag("reason"), counter.count(), Double::sum);
    }
    return retries;
  }

  /**
   * Prints the workload's commands by type, each counted once, with a total row that is the sum of
   * the rows and the workload's count; then what the driver's meters counted since {@code
   * baseline}: the parts of split commands, retries, redirects, topology updates, connections.
   */
  static void print(
      PrintWriter out,
      MeterRegistry registry,
      Baseline baseline,
      Map<String, Workload.CommandCount> byCommand,
      Workload.Snapshot total) {
    out.println(
        "commands as the workload sent them (each once: an MGET split over nodes is one command):");
    out.println(
        String.format(Locale.ROOT, "  %-8s %12s %9s %10s", "COMMAND", "SUCCESS", "FAILURE", "P99"));
    byCommand.forEach(
        (command, count) ->
            out.println(row(command, count.succeeded(), count.failed(), count.p99Micros())));
    out.println(
        row(
            "TOTAL",
            total.succeeded(),
            total.failed(),
            LatencyHistogram.percentileMicros(total.latencies(), 0.99)));
    Baseline now = baseline(registry);
    out.println("driver metrics during the workload (Micrometer, see docs/metrics.md):");
    long splits = now.splits() - baseline.splits();
    long parts = Math.round(now.parts() - baseline.parts());
    if (splits > 0) {
      List<String> partsByCommand = new ArrayList<>();
      now.partsByCommand()
          .forEach(
              (command, count) -> {
                long since = count - baseline.partsByCommand().getOrDefault(command, 0L);
                if (since > 0 && byCommand.containsKey(command)) {
                  long commands =
                      byCommand.get(command).succeeded() + byCommand.get(command).failed();
                  if (since != commands) {
                    partsByCommand.add(
                        String.format(
                            Locale.ROOT, "%s %,d parts of %,d", command, since, commands));
                  }
                }
              });
      out.println(
          String.format(
              Locale.ROOT,
              "  multi-key splits: %,d, into %,d parts (%.1f nodes on average)%s",
              splits,
              parts,
              (double) parts / splits,
              partsByCommand.isEmpty()
                  ? ""
                  : "; jumpgate.commands counts each part: " + String.join(", ", partsByCommand)));
    }
    List<String> retries = new ArrayList<>();
    long redirectRetries = 0;
    for (Map.Entry<String, Double> reason : now.retriesByReason().entrySet()) {
      long count =
          Math.round(
              reason.getValue() - baseline.retriesByReason().getOrDefault(reason.getKey(), 0.0));
      if (count > 0) {
        retries.add(String.format(Locale.ROOT, "%s %,d", reason.getKey(), count));
      }
      if (reason.getKey().equals("redirect")) {
        redirectRetries = count;
      }
    }
    out.println(
        "  retries by reason: "
            + (retries.isEmpty()
                ? "none"
                : String.join(", ", retries) + " (what each means: docs/driver.md, Retries)"));
    out.println(
        String.format(
            Locale.ROOT,
            "  redirect retries sent straight to the node a MOVED answer named: %,d of %,d"
                + " (the others went again with a newer map: after READONLY, a MOVED to a node"
                + " not in the map, or a node that left it)",
            Math.round(now.redirects() - baseline.redirects()),
            redirectRetries));
    out.println(
        String.format(
            Locale.ROOT,
            "  topology updates applied: %,d (now at revision %d, %d invalid entries)",
            Math.round(counter(registry, "jumpgate.topology.updates")),
            Math.round(gauge(registry, "jumpgate.topology.revision")),
            Math.round(gauge(registry, "jumpgate.topology.invalid"))));
    out.println(
        String.format(
            Locale.ROOT,
            "  connections open: %d",
            Math.round(gauge(registry, "jumpgate.connections"))));
    out.flush();
  }

  private static String row(String command, long succeeded, long failed, long p99Micros) {
    return String.format(
        Locale.ROOT,
        "  %-8s %,12d %,9d %10s",
        command,
        succeeded,
        failed,
        p99Micros < 0 ? "-" : ProgressLine.latency(p99Micros));
  }

  private static double counter(MeterRegistry registry, String name) {
    Counter counter = registry.find(name).counter();
    return counter == null ? 0 : counter.count();
  }

  private static double gauge(MeterRegistry registry, String name) {
    Gauge gauge = registry.find(name).gauge();
    return gauge == null ? Double.NaN : gauge.value();
  }
}
