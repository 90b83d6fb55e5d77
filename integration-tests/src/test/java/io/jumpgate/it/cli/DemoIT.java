package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.cli.JumpgateCli;
import io.jumpgate.cli.demo.DemoCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code jumpgate demo} end to end, in-process, against real etcd and redis-server binaries: the
 * run prints what it promises (a shard moved with its keys, a failover, a fourth node added with a
 * quarter of the shards moved to it live, every key checked on its owner) and leaves no process and
 * no temp dir behind; with {@code --keep} the cluster stays reachable with the flags it prints.
 */
class DemoIT {

  private static final Pattern PID = Pattern.compile(" pid (\\d+)");
  private static final Pattern DIR = Pattern.compile("a local cluster in (\\S+)");
  private static final Pattern PROGRESS =
      Pattern.compile(
          "(?m)^t=\\s*\\d+\\.\\ds\\s+[\\d,]+ ops/s  (?:[a-z-]+: [^\\n]*?  )?p50 .* rev \\d+"
              + "  errors \\d.*$");

  /** Processes a --keep run left running, stopped after the test whatever happens. */
  private final List<Long> kept = new ArrayList<>();

  private Path keptDir;

  private record Result(int exitCode, String out, String err) {}

  /**
   * Runs {@code jumpgate demo <arguments>} in-process, through the CLI's own error handling; the
   * verb is added to the command line if {@code JumpgateCli} does not list it (yet).
   */
  private static Result demo(String... arguments) {
    CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
    if (!jumpgate.getSubcommands().containsKey("demo")) {
      jumpgate.addSubcommand("demo", new DemoCommand());
    }
    List<String> all = new ArrayList<>(List.of("demo"));
    all.addAll(List.of(arguments));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    jumpgate.setOut(new PrintWriter(out, true));
    jumpgate.setErr(new PrintWriter(err, true));
    int exitCode = jumpgate.execute(all.toArray(String[]::new));
    return new Result(exitCode, out.toString(), err.toString());
  }

  private static List<Long> pids(String out) {
    List<Long> pids = new ArrayList<>();
    Matcher matcher = PID.matcher(out);
    while (matcher.find()) {
      pids.add(Long.parseLong(matcher.group(1)));
    }
    return pids;
  }

  private static Path dir(String out) {
    Matcher matcher = DIR.matcher(out);
    assertThat(matcher.find()).as("the temp dir line in:%n%s", out).isTrue();
    return Path.of(matcher.group(1));
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @AfterEach
  void stopWhatWasKept() throws Exception {
    for (long pid : kept) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isPresent()) {
        process.get().destroyForcibly();
        process.get().onExit().get(10, TimeUnit.SECONDS);
      }
    }
    if (keptDir != null && Files.exists(keptDir)) {
      try (var walk = Files.walk(keptDir)) {
        for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }
  }

  @Test
  void aShortDemoRunsEndToEndAndCleansUp() {
    Result result = demo("--duration", "6s");

    assertThat(result.exitCode())
        .as("stderr: %s%nstdout:%n%s", result.err(), result.out())
        .isZero();
    String out = result.out();
    assertThat(PROGRESS.matcher(out).results().count()).as(out).isGreaterThanOrEqualTo(4);
    assertThat(out)
        .contains(" move: shard ", "with its keys", "1 shard moved with its keys")
        .contains(
            "failover: FAILOVER on leader-1", "replica-1 is master", "errors during the switch")
        .contains("leader-3 is not in the map", "add-node: leader-3 joins the map")
        .contains("add-node: 256 shards moved with their keys")
        .contains("replica slots realigned with Redis replication")
        .contains("workload: ")
        .contains("key check: 0 errors, every key checked (10,100 keys)")
        .contains("routing at topology revision", "SHARDS LED", "KEYS")
        .contains("driver metrics", "GET", "MGET", "INCR", "SET", "DEL", "retries by reason")
        .containsPattern(
            "redirect retries sent straight to the node a MOVED answer named: [\\d,]+ of")
        .contains("cluster stopped: 8 processes ended");
    // the data moves showed their progress in the progress line, and lost no write
    assertThat(out)
        .containsPattern("(?m)^t=.* ops/s  add-node: [a-z ]+ \\d+/256 shards, [\\d,]+ keys")
        .doesNotContainPattern("[1-9][\\d,]* writes after cutover");
    assertThat(out).containsPattern("(?m)^  replica-1 +127\\.0\\.0\\.1:\\d+ +master +256 ");
    assertThat(out).containsPattern("(?m)^  leader-1 +127\\.0\\.0\\.1:\\d+ +replica +0 ");
    assertThat(out).containsPattern("(?m)^  leader-3 +127\\.0\\.0\\.1:\\d+ +master +256 ");
    commandRowsAddUp(out);
    // Then no process it started survives, and its temp dir is gone
    List<Long> pids = pids(out);
    assertThat(pids).hasSize(8);
    assertThat(pids).noneMatch(DemoIT::alive);
    assertThat(dir(out)).doesNotExist();
  }

  private static long number(String digits) {
    return Long.parseLong(digits.replace(",", ""));
  }

  /**
   * The command table counts each command once: its rows add up to its TOTAL row, which is the
   * workload's count; the parts of split MGETs are a figure of their own.
   */
  private static void commandRowsAddUp(String out) {
    Matcher workload = Pattern.compile("(?m)^workload: ([\\d,]+) commands in ").matcher(out);
    assertThat(workload.find()).as(out).isTrue();
    long commands = number(workload.group(1));
    Matcher row =
        Pattern.compile(
                "(?m)^  (DEL|GET|INCR|MGET|SET|TOTAL) +([\\d,]+) +([\\d,]+) +(?:-|[\\d.]+ m?s)$")
            .matcher(out);
    long succeeded = 0;
    long failed = 0;
    List<String> seen = new ArrayList<>();
    while (row.find()) {
      seen.add(row.group(1));
      if (row.group(1).equals("TOTAL")) {
        assertThat(succeeded)
            .as("successes of the rows vs TOTAL in:%n%s", out)
            .isEqualTo(number(row.group(2)));
        assertThat(failed)
            .as("failures of the rows vs TOTAL in:%n%s", out)
            .isEqualTo(number(row.group(3)));
        assertThat(succeeded + failed)
            .as("TOTAL vs the workload line in:%n%s", out)
            .isEqualTo(commands);
      } else {
        succeeded += number(row.group(2));
        failed += number(row.group(3));
      }
    }
    assertThat(seen).as(out).containsExactly("DEL", "GET", "INCR", "MGET", "SET", "TOTAL");
    Matcher splits =
        Pattern.compile("multi-key splits: ([\\d,]+), into ([\\d,]+) parts").matcher(out);
    assertThat(splits.find()).as(out).isTrue();
    assertThat(number(splits.group(2))).isGreaterThanOrEqualTo(number(splits.group(1)));
  }

  @Test
  void keepLeavesTheClusterRunningAndSaysHowToReachIt() {
    Result result = demo("--duration", "3s", "--keep");
    kept.addAll(pids(result.out()));
    keptDir = dir(result.out());

    assertThat(result.exitCode())
        .as("stderr: %s%nstdout:%n%s", result.err(), result.out())
        .isZero();
    assertThat(kept).hasSize(8).allMatch(DemoIT::alive);
    assertThat(keptDir).isDirectory();
    Matcher flags =
        Pattern.compile("reach it with (--etcd (http://127\\.0\\.0\\.1:\\d+) --cluster demo)")
            .matcher(result.out());
    assertThat(flags.find()).as(result.out()).isTrue();
    assertThat(result.out()).contains("stop it with: kill ").doesNotContain("cluster stopped");
    // And the printed flags reach the cluster
    StringWriter out = new StringWriter();
    CommandLine topology = JumpgateCli.newCommandLine(Map.of());
    topology.setOut(new PrintWriter(out, true));
    int exitCode =
        topology.execute("topology", "show", "--etcd", flags.group(2), "--cluster", "demo");
    assertThat(exitCode).as(out.toString()).isZero();
    assertThat(out.toString()).contains("leader-0", "replica-1", "leader-3", "1024");
  }
}
