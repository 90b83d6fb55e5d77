package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProgressLineTest {

  @Test
  void aProgressLineShowsTimeRateLatenciesErrorsAndRevision() {
    assertThat(ProgressLine.format(7.04, 41_210, 840, 3_100, new TreeMap<>(), 12))
        .isEqualTo("t=  7.0s   41,210 ops/s  p50 0.84 ms  p99 3.10 ms  rev 12  errors 0");
  }

  @Test
  void aDataMoveShowsItsPhaseShardsKeysAndFreezesAfterTheRate() {
    MoveProgress progress =
        new MoveProgress(
            "add-node-leader-3", MovePhase.CUTOVER, 256, 96, 0, 3, 0, 2_417, 40, 0, 0, 0, 0);
    String moving = ProgressLine.moving("add-node", progress);

    assertThat(moving).isEqualTo("add-node: cutover 96/256 shards, 2,417 keys, 3 freezes");
    String line = ProgressLine.format(12, 41_210, 840, 3_100, new TreeMap<>(), 60, moving);
    assertThat(line)
        .isEqualTo(
            "t= 12.0s   41,210 ops/s  add-node: cutover 96/256 shards, 2,417 keys, 3 freezes"
                + "  p50 0.84 ms  p99 3.10 ms  rev 60  errors 0");
    // on a terminal, the move's progress stays whole and the latencies give way
    assertThat(ProgressLine.fitted(line))
        .isEqualTo(
            "t= 12.0s   41,210 ops/s  add-node: cutover 96/256 shards, 2,417 keys, 3 freezes");
  }

  @Test
  void aDataMoveBeingPreparedShowsItsPhaseOnly() {
    MoveProgress progress =
        new MoveProgress("", MovePhase.PREPARE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    assertThat(ProgressLine.moving("add-node", progress)).isEqualTo("add-node: prepare");
  }

  @Test
  void anIntervalWithoutAnswersHasNoLatency() {
    assertThat(ProgressLine.format(1, 0, -1, -1, new TreeMap<>(), 2))
        .isEqualTo("t=  1.0s        0 ops/s  p50 -  p99 -  rev 2  errors 0");
  }

  @Test
  void errorsNameTheMostFrequentTypesAndCountTheRest() {
    TreeMap<String, Long> errors =
        new TreeMap<>(Map.of("READONLY", 3L, "timeout", 12L, "node unavailable", 1L, "ERR", 0L));

    assertThat(ProgressLine.errors(errors))
        .isEqualTo("errors 16 (timeout 12, READONLY 3, other 1)");
  }

  @Test
  void noErrorsIsZero() {
    assertThat(ProgressLine.errors(new TreeMap<>(Map.of("timeout", 0L)))).isEqualTo("errors 0");
  }

  @ParameterizedTest
  @CsvSource({
    "0, 0.00 ms",
    "840, 0.84 ms",
    "9999, 10.00 ms",
    "12500, 12.5 ms",
    "250000, 250 ms",
    "1200000, 1.20 s"
  })
  void latenciesAreShownInMillisecondsWithTwoOrThreeDigits(long micros, String text) {
    assertThat(ProgressLine.latency(micros)).isEqualTo(text);
  }

  @Test
  void onATerminalALongProgressLineIsCutToFitEightyColumns() {
    StringWriter text = new StringWriter();
    ProgressLine progress = new ProgressLine(new PrintWriter(text), true);
    String line = "x".repeat(100);

    progress.update(line);

    assertThat(text.toString()).isEqualTo("\r" + "x".repeat(76) + "...");
  }

  @Test
  void withoutATerminalEveryLineIsALine() {
    StringWriter text = new StringWriter();
    ProgressLine progress = new ProgressLine(new PrintWriter(text), false);

    progress.update("t=1");
    progress.event("moved");
    progress.update("t=2");
    progress.finish();

    assertThat(text.toString())
        .isEqualTo(String.join(System.lineSeparator(), "t=1", "moved", "t=2", ""));
  }

  @Test
  void onATerminalTheProgressLineIsRewrittenInPlaceBelowTheEvents() {
    StringWriter text = new StringWriter();
    ProgressLine progress = new ProgressLine(new PrintWriter(text), true);
    String newLine = System.lineSeparator();

    progress.update("t=1 long line");
    progress.update("t=2");
    progress.event("moved");
    progress.finish();

    assertThat(text.toString())
        .isEqualTo("\rt=1 long line" + "\rt=2          " + "\rmoved" + newLine + "t=2" + newLine);
  }
}
