package io.jumpgate.cli.demo;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The summary of the driver's Micrometer meters (see docs/metrics.md) that the demo prints at the
 * end: commands by type and outcome with their p99, retries by reason, redirects, topology updates,
 * fan-out, connections; and the commands each node served.
 *
 * <p>Stateless; reads the registry when called.
 */
final class MetricsSummary {

  static final String COMMANDS = "jumpgate.commands";
  static final String NODE_COMMANDS = "jumpgate.node.commands";

  private MetricsSummary() {}

  /**
   * A filter that makes {@value #COMMANDS} timers publish their 99th percentile over {@code
   * window}: install it on the registry before the client records anything.
   */
  static MeterFilter percentiles(Duration window) {
    return new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(
          Meter.Id id, DistributionStatisticConfig config) {
        if (!id.getName().equals(COMMANDS)) {
          return config;
        }
        return DistributionStatisticConfig.builder()
            .percentiles(0.99)
            .percentilePrecision(2)
            .expiry(window)
            .bufferLength(1)
            .build()
            .merge(config);
      }
    };
  }

  /** Commands that each node served ({@value #NODE_COMMANDS}, both outcomes), by node id. */
  static Map<String, Long> commandsByNode(MeterRegistry registry) {
    Map<String, Long> counts = new TreeMap<>();
    for (Timer timer : registry.find(NODE_COMMANDS).timers()) {
      counts.merge(timer.getId().getTag("node"), timer.count(), Long::sum);
    }
    return counts;
  }

  /** Prints the summary. */
  static void print(PrintWriter out, MeterRegistry registry) {
    out.println("driver metrics (Micrometer, see docs/metrics.md):");
    Map<String, long[]> outcomes = new TreeMap<>();
    Map<String, Double> p99 = new TreeMap<>();
    for (Timer timer : registry.find(COMMANDS).timers()) {
      String command = timer.getId().getTag("command");
      boolean success = "success".equals(timer.getId().getTag("outcome"));
      outcomes.computeIfAbsent(command, c -> new long[2])[success ? 0 : 1] += timer.count();
      if (success) {
        for (ValueAtPercentile value : timer.takeSnapshot().percentileValues()) {
          if (value.percentile() == 0.99) {
            p99.put(command, value.value(TimeUnit.MICROSECONDS));
          }
        }
      }
    }
    out.println(
        String.format(Locale.ROOT, "  %-8s %12s %9s %10s", "COMMAND", "SUCCESS", "FAILURE", "P99"));
    outcomes.forEach(
        (command, counts) ->
            out.println(
                String.format(
                    Locale.ROOT,
                    "  %-8s %,12d %,9d %10s",
                    command,
                    counts[0],
                    counts[1],
                    p99.containsKey(command)
                        ? ProgressLine.latency(Math.round(p99.get(command)))
                        : "-")));
    List<String> retries = new ArrayList<>();
    Map<String, Double> retriesByReason = new TreeMap<>();
    for (Counter counter : registry.find("jumpgate.retries").counters()) {
      retriesByReason.merge(counter.getId().getTag("reason"), counter.count(), Double::sum);
    }
    retriesByReason.forEach(
        (reason, count) -> {
          if (count > 0) {
            retries.add(String.format(Locale.ROOT, "%s %,d", reason, Math.round(count)));
          }
        });
    out.println(
        "  retries by reason: "
            + (retries.isEmpty()
                ? "none"
                : String.join(", ", retries) + " (what each means: docs/driver.md, Retries)"));
    out.println(
        String.format(
            Locale.ROOT,
            "  MOVED redirects followed: %,d",
            Math.round(counter(registry, "jumpgate.redirects"))));
    out.println(
        String.format(
            Locale.ROOT,
            "  topology updates applied: %,d (now at revision %d, %d invalid entries)",
            Math.round(counter(registry, "jumpgate.topology.updates")),
            Math.round(gauge(registry, "jumpgate.topology.revision")),
            Math.round(gauge(registry, "jumpgate.topology.invalid"))));
    DistributionSummary fanOut = registry.find("jumpgate.fanout.nodes").summary();
    if (fanOut != null && fanOut.count() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  multi-key commands split over %.1f nodes on average (%,d splits)",
              fanOut.mean(),
              fanOut.count()));
    }
    out.println(
        String.format(
            Locale.ROOT,
            "  connections open: %d",
            Math.round(gauge(registry, "jumpgate.connections"))));
    out.flush();
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
