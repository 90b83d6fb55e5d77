package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.cli.demo.Workload.Snapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The demo verb's options and judgement, without starting anything. */
class DemoCommandTest {

  @ParameterizedTest
  @CsvSource({
    "5s, PT5S",
    "20s, PT20S",
    "1m, PT1M",
    "1m30s, PT1M30S",
    "1500ms, PT1.5S",
    "2h, PT2H",
    "' 6S ', PT6S"
  })
  void durationsAreNumbersWithUnits(String text, String expected) {
    assertThat(DemoCommand.parseDuration(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "20", "s", "5 s", "5sec", "-5s", "1.5s", "PT5S", "5d"})
  void otherTextIsNotADuration(String text) {
    assertThat(DemoCommand.parseDuration(text)).isNull();
  }

  @Test
  void aBadDurationIsAUsageErrorNamingTheOption() {
    Run run = run("--duration", "fast");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("--duration must be a duration such as 5s, 20s or 1m, was 'fast'");
    assertThat(run.out()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1s", "2999ms", "25h"})
  void aDurationOutOfRangeIsAUsageError(String text) {
    Run run = run("--duration", text);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--duration must be between 3s and 24h, was '" + text + "'");
  }

  @Test
  void helpNamesTheOptions() {
    Run run = run("--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("--duration=DURATION", "--keep", "JUMPGATE_ETCD_BIN");
    assertThat(run.out().replaceAll("\\s+", " "))
        .contains("adds the fourth server as a node", "'0 errors, every key checked'");
  }

  @Test
  void aRunWithAnswersInEveryPhaseAndFewErrorsPasses() {
    Snapshot total = snapshot(100_000, 999, "READONLY", 999);
    Snapshot afterFailover = snapshot(30_000, 0, null, 0);

    assertThat(DemoCommand.judge(total, afterFailover, true)).isNull();
  }

  @Test
  void moreThanOnePercentOfFailuresFailsTheRun() {
    Snapshot total = snapshot(98_000, 2_000, "timeout", 2_000);

    assertThat(DemoCommand.judge(total, snapshot(1, 0, null, 0), true))
        .isEqualTo(
            "the workload failed: 2,000 of 100,000 commands failed (more than 1%): errors 2,000"
                + " (timeout 2000)");
  }

  @Test
  void noAnswerAfterTheFailoverFailsTheRun() {
    assertThat(DemoCommand.judge(snapshot(10, 0, null, 0), snapshot(0, 0, null, 0), true))
        .isEqualTo("no command succeeded after the failover of leader-1");
    assertThat(DemoCommand.judge(snapshot(0, 0, null, 0), snapshot(0, 0, null, 0), true))
        .isEqualTo("the workload got no answer at all; see the errors above");
  }

  @Test
  void commandsStillInFlightFailTheRun() {
    assertThat(DemoCommand.judge(snapshot(10, 0, null, 0), snapshot(5, 0, null, 0), false))
        .isEqualTo("commands were still in flight 5 s after the workload stopped");
  }

  @ParameterizedTest
  @CsvSource({"PT20S, 20 s", "PT3.5S, 3.5 s", "PT1M, 1 min", "PT1M30S, 1 min 30 s"})
  void durationsAreDescribedForPeople(String duration, String text) {
    assertThat(DemoCommand.describe(Duration.parse(duration))).isEqualTo(text);
  }

  private static Snapshot snapshot(long succeeded, long failed, String errorType, long errors) {
    TreeMap<String, Long> byType = new TreeMap<>();
    if (errorType != null) {
      byType.put(errorType, errors);
    }
    return new Snapshot(succeeded, failed, new long[LatencyHistogram.BUCKETS], byType);
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run run(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new DemoCommand(Map.of()));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(arguments);
    return new Run(exitCode, out.toString(), err.toString());
  }
}
