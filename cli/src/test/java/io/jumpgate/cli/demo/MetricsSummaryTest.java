package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The demo's summary: commands counted once with a total that adds up, MGET parts as a figure of
 * their own, and the driver's figures since the baseline with redirect retries and MOVED redirects
 * labelled apart.
 */
class MetricsSummaryTest {

  private static void commands(SimpleMeterRegistry registry, String command, int parts) {
    Timer timer = registry.timer(MetricsSummary.COMMANDS, "command", command, "outcome", "success");
    for (int part = 0; part < parts; part++) {
      timer.record(Duration.ofNanos(1_000));
    }
  }

  @Test
  void rowsAddUpAndTheDriverFiguresCountFromTheBaseline() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    DistributionSummary fanOut = registry.summary(MetricsSummary.FANOUT_NODES);
    // warm-up: not in the summary
    commands(registry, "MGET", 3);
    fanOut.record(3);
    registry.counter(MetricsSummary.RETRIES, "reason", "redirect").increment(5);
    MetricsSummary.Baseline baseline = MetricsSummary.baseline(registry);
    // the workload: 10 MGETs split into 25 parts, 7 GETs; 64 redirect retries, 2 via MOVED
    commands(registry, "MGET", 25);
    commands(registry, "GET", 7);
    for (int split = 0; split < 10; split++) {
      fanOut.record(split < 5 ? 2 : 3);
    }
    registry.counter(MetricsSummary.RETRIES, "reason", "redirect").increment(64);
    registry.counter(MetricsSummary.REDIRECTS).increment(2);
    Map<String, Workload.CommandCount> byCommand = new LinkedHashMap<>();
    byCommand.put("GET", new Workload.CommandCount(7, 0, 900));
    byCommand.put("MGET", new Workload.CommandCount(9, 1, 1_500));
    LatencyHistogram latencies = new LatencyHistogram();
    for (int command = 0; command < 17; command++) {
      latencies.record(1_000_000);
    }
    Workload.Snapshot total = new Workload.Snapshot(16, 1, latencies.snapshot(), new TreeMap<>());

    StringWriter text = new StringWriter();
    MetricsSummary.print(new PrintWriter(text), registry, baseline, byCommand, total);
    String out = text.toString();

    assertThat(out)
        .containsPattern("(?m)^  GET +7 +0 +0\\.90 ms$")
        .containsPattern("(?m)^  MGET +9 +1 +1\\.50 ms$")
        .containsPattern("(?m)^  TOTAL +16 +1 +\\S+ ms$")
        .contains("multi-key splits: 10, into 25 parts (2.5 nodes on average)")
        .contains("jumpgate.commands counts each part: MGET 25 parts of 10")
        .contains("retries by reason: redirect 64 ")
        .contains("redirect retries sent straight to the node a MOVED answer named: 2 of 64");
  }
}
