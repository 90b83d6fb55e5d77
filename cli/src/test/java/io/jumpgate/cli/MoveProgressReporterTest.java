package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The progress line and the summary of a data move, on a test clock. No thread, no etcd. */
class MoveProgressReporterTest {

  private final StringWriter written = new StringWriter();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final AtomicReference<MoveProgress> progress =
      new AtomicReference<>(progress(MovePhase.COPY, 0, 0));

  private static MoveProgress progress(MovePhase phase, int cutOver, long keys) {
    return new MoveProgress("m1", phase, 16, cutOver, 0, 0, 0, keys, 0, 0, 0, 0, 0);
  }

  private MoveProgressReporter reporter(boolean terminal) {
    return new MoveProgressReporter(
        new PrintWriter(written, true), terminal, progress::get, 20_000, clock::get);
  }

  private static GroupOutcome group(boolean cutOver, long freezeMillis) {
    return new GroupOutcome(
        new TreeSet<>(Set.of(1, 2)),
        "n0",
        "n3",
        1,
        cutOver,
        50,
        Duration.ofMillis(5),
        Duration.ofMillis(freezeMillis),
        cutOver ? List.of() : List.of("client 'c1' silent"),
        List.of());
  }

  @Test
  void plainOutputPrintsALinePerPhaseAndAtMostEveryFiveSeconds() {
    MoveProgressReporter reporter = reporter(false);
    clock.addAndGet(500_000_000L);
    progress.set(progress(MovePhase.COPY, 0, 5_000));
    reporter.tick();
    clock.addAndGet(500_000_000L);
    progress.set(progress(MovePhase.COPY, 0, 10_000));
    reporter.tick();
    clock.addAndGet(500_000_000L);
    progress.set(progress(MovePhase.CUTOVER, 0, 20_000));
    reporter.tick();
    reporter.groupFinished(group(true, 12));
    reporter.groupFinished(group(false, 40));
    clock.addAndGet(5_000_000_000L);
    progress.set(progress(MovePhase.CUTOVER, 8, 20_000));
    reporter.tick();

    assertThat(written.toString().lines().toList())
        .containsExactly(
            "copy     shards 0/16  keys 5,000  10,000 keys/s  ETA 1.5 s  freezes 0",
            "cutover  shards 0/16  keys 20,000  20,000 keys/s  ETA -  freezes 0",
            "group of 2 shard(s) n0 -> n3 given up (attempt 1), nothing moved: client 'c1'"
                + " silent",
            "cutover  shards 8/16  keys 20,000  0 keys/s  ETA 5.0 s  freezes 2 p99 40 ms");
  }

  @Test
  void onATerminalTheLineIsRewrittenInPlace() {
    MoveProgressReporter reporter = reporter(true);
    clock.addAndGet(500_000_000L);
    reporter.tick();
    reporter.tick();
    reporter.close();

    assertThat(written.toString()).startsWith("\rcopy ").contains("\rcopy ").doesNotContain("\n\r");
    assertThat(written.toString().chars().filter(c -> c == '\n').count())
        .as("line feeds: only the one after the last line")
        .isEqualTo(1);
    assertThat(written.toString()).endsWith(System.lineSeparator());
  }

  @Test
  void theSummaryAddsUpTheRunsAndGivesTheFreezePercentiles() {
    MoveProgress end =
        new MoveProgress("m1", MovePhase.DONE, 4, 3, 1, 3, 1, 900, 100, 2_048_000, 0, 1_000, 2);
    Map<Integer, String> notMoved = new TreeMap<>(Map.of(9, "client 'c1' silent"));
    MoveResult result =
        new MoveResult(
            "m1",
            new TreeSet<>(Set.of(1, 2, 3)),
            new TreeMap<>(notMoved),
            List.of(group(true, 10), group(true, 20), group(false, 30)),
            end,
            new TreeMap<>(Map.of(2, 2L)),
            Duration.ofMillis(12_300));

    List<String> lines =
        MoveProgressReporter.summary(new MapChangeMover.Result(List.of(result), null, false));

    assertThat(lines)
        .containsExactly(
            "moved 3 of 4 shard(s) with their data in 12 s: 1,000 key(s) copied (2.0 MB), 3"
                + " freeze(s) p50 20 ms p99 30 ms max 30 ms, 2 write(s) after cutover",
            "  shard 9 not moved: client 'c1' silent",
            "  shard 2: 2 write(s) reached its old leader after its cutover (lost)");
    assertThat(MoveProgressReporter.percentile(List.of(), 0.5)).isEqualTo(-1);
    assertThat(MoveProgressReporter.millis(4_250)).isEqualTo("4.3 ms");
    assertThat(MoveProgressReporter.seconds(185_000_000_000L)).isEqualTo("3 min 5 s");
  }
}
