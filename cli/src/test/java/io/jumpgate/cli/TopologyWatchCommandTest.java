package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code topology watch} on a topology file, which the file source checks every second. */
class TopologyWatchCommandTest {

  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir Path dir;

  /** A watch running on its own thread, with stdout and stderr captured. */
  private static final class RunningWatch {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CompletableFuture<Integer> exitCode;

    RunningWatch(String... arguments) {
      CommandLine commandLine = JumpgateCli.newCommandLine(Map.of());
      commandLine.setOut(new PrintWriter(out, true));
      commandLine.setErr(new PrintWriter(err, true));
      exitCode = CompletableFuture.supplyAsync(() -> commandLine.execute(arguments));
    }

    String out() {
      return out.toString();
    }

    String err() {
      return err.toString();
    }

    int awaitExit() throws Exception {
      return exitCode.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void printsTheCurrentRevisionThenEachNewRevisionAsABlock() throws Exception {
    Path file = TopologyFileBuilder.standard().writeTo(dir.resolve("map.json"));
    RunningWatch watch =
        new RunningWatch(
            "topology", "watch", "--topology-file", file.toString(), "--count", "2", "--for", "1m");
    await("the current revision", () -> watch.out().contains("current map"));

    TopologyFileBuilder.standard().revision(8).assign(5, "n0", 1, "n1").writeTo(file);
    await("revision 8", () -> watch.out().contains("revision 8"));
    TopologyFileBuilder.standard()
        .revision(9)
        .assign(5, "n0", 1, "n1")
        .node("n3", "10.0.0.4", 7003, null)
        .node("n2", "10.0.0.30", 7002, "az3")
        .writeTo(file);

    assertThat(watch.awaitExit()).isZero();
    assertThat(watch.err()).isEmpty();
    assertThat(watch.out().lines())
        .containsExactly(
            "revision 7: current map of cluster 'test': 8 shards, 3 nodes, 0 unavailable shards,"
                + " 0 invalid entries",
            "revision 8: shard 0005 leader n2 -> n0, replicas [n0] -> [n1] (epoch 0 -> 1)",
            "revision 9: node n2 address 10.0.0.3:7002 -> 10.0.0.30:7002",
            "revision 9: node n3 added 10.0.0.4:7003");
  }

  @Test
  void jsonPrintsOneObjectPerRevision() throws Exception {
    Path file = TopologyFileBuilder.standard().writeTo(dir.resolve("map.json"));
    RunningWatch watch =
        new RunningWatch(
            "topology", "watch", "--json", "--topology-file", file.toString(), "--count", "1");
    await("the current revision", () -> watch.out().contains("\"current\":true"));

    TopologyFileBuilder.standard().revision(8).rawAssignment(6, "\"leader\":\"n9\"").writeTo(file);

    assertThat(watch.awaitExit()).isZero();
    List<String> lines = watch.out().lines().toList();
    assertThat(lines)
        .containsExactly(
            "{\"revision\":7,\"current\":true,\"cluster\":\"test\",\"shards\":8,\"nodes\":3,"
                + "\"unavailable\":0,\"invalid\":0}",
            "{\"revision\":8,\"previousRevision\":7,\"cluster\":\"test\",\"changes\":["
                + "\"invalid: /jumpgate/test/shards/0006: leader 'n9' is not in the node table\"],"
                + "\"nodes\":[],\"shards\":[],"
                + "\"invalid\":[{\"key\":\"/jumpgate/test/shards/0006\","
                + "\"reason\":\"leader 'n9' is not in the node table\",\"modRevision\":0}],"
                + "\"fixed\":[]}");
  }

  @Test
  void forStopsAfterTheDurationWithTheCurrentRevisionOnly() throws Exception {
    Path file = TopologyFileBuilder.standard().writeTo(dir.resolve("map.json"));

    long start = System.nanoTime();
    CliRunner.Result result =
        CliRunner.run("topology", "watch", "--topology-file", file.toString(), "--for", "300ms");
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines()).hasSize(1).first().asString().startsWith("revision 7: ");
    assertThat(elapsedMillis).isLessThan(5000);
  }

  @Test
  void aFileThatStopsLoadingIsReportedOnStderrOnceAndSoIsItsRecovery() throws Exception {
    Path file = TopologyFileBuilder.standard().writeTo(dir.resolve("map.json"));
    RunningWatch watch =
        new RunningWatch(
            "topology", "watch", "--topology-file", file.toString(), "--count", "1", "--for", "1m");
    await("the current revision", () -> watch.out().contains("current map"));

    SampleTopology.write(file, "{\"cluster\":");
    await("the error", () -> watch.err().contains("stays in force"));
    TopologyFileBuilder.standard().revision(20).assign(0, "n1", 1).writeTo(file);

    assertThat(watch.awaitExit()).isZero();
    assertThat(watch.err().lines())
        .hasSize(2)
        .satisfiesExactly(
            line ->
                assertThat(line)
                    .startsWith("jumpgate topology watch: topology file " + file + " is not valid")
                    .endsWith("; revision 7 stays in force, still watching"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        "jumpgate topology watch: reading topology file " + file + " again"));
    assertThat(watch.out()).contains("revision 20: shard 0000 leader n0 -> n1");
  }

  private static final Node N0 = new Node("n0", "127.0.0.1", 7000, null, Map.of(), false);
  private static final Node N1 = new Node("n1", "127.0.0.1", 7001, null, Map.of(), false);
  private static final MigrationLock LOCK =
      new MigrationLock("m1", "app-1:4242", "2026-11-25T10:00:00Z", 80);

  /** One shard led by n0, at {@code revision}, with these nodes and lock. */
  private static TopologySnapshot snapshot(long revision, MigrationLock lock, Node... nodes) {
    Map<String, Node> table = new TreeMap<>();
    for (Node node : nodes) {
      table.put(node.id(), node);
    }
    return TopologySnapshot.create(
        "demo",
        revision,
        TopologyMetadata.of(1),
        table,
        new ShardRoute[] {ShardRoute.of(0, N0, List.of(), 0, ShardState.ACTIVE, 3)},
        List.of(),
        Instant.EPOCH,
        lock);
  }

  @Test
  void aLockChangeIsPrintedAtTheSameMapRevisionAndIsNotANewRevision() {
    TopologySnapshot current = snapshot(75, null, N0);
    TopologySnapshot locked = snapshot(75, LOCK, N0);
    TopologySnapshot again = snapshot(75, LOCK, N0);
    TopologySnapshot grown = snapshot(87, LOCK, N0, N1);
    StringWriter text = new StringWriter();
    StringWriter json = new StringWriter();

    List<Boolean> counted =
        List.of(
            TopologyWatchCommand.printUpdate(new PrintWriter(text), false, current, locked),
            TopologyWatchCommand.printUpdate(new PrintWriter(text), false, locked, again),
            TopologyWatchCommand.printUpdate(new PrintWriter(text), false, again, grown),
            TopologyWatchCommand.printUpdate(new PrintWriter(json), true, current, locked),
            TopologyWatchCommand.printUpdate(new PrintWriter(json), true, locked, grown));

    assertThat(counted).containsExactly(false, false, true, false, true);
    assertThat(text.toString().lines())
        .containsExactly(
            "revision 75, map unchanged: migration lock none -> m1 (owner app-1:4242)",
            "revision 87: node n1 added 127.0.0.1:7001");
    List<String> lines = json.toString().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0))
        .isEqualTo(
            "{\"revision\":75,\"mapChanged\":false,\"cluster\":\"demo\",\"changes\":"
                + "[\"migration lock none -> m1 (owner app-1:4242)\"]}");
    assertThat(lines.get(1)).startsWith("{\"revision\":87,\"previousRevision\":75,");
  }

  @Test
  void badCountAndDurationAreUsageErrors() {
    Path file = TopologyFileBuilder.standard().writeTo(dir.resolve("map.json"));

    CliRunner.Result count =
        CliRunner.run("topology", "watch", "--topology-file", file.toString(), "--count", "0");
    CliRunner.Result duration =
        CliRunner.run("topology", "watch", "--topology-file", file.toString(), "--for", "soon");

    assertThat(count.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(count.err())
        .isEqualTo(
            "jumpgate topology watch: --count must be between 1 and 2147483647, was 0"
                + System.lineSeparator());
    assertThat(duration.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(duration.err())
        .isEqualTo(
            "jumpgate topology watch: --for must be a duration such as 500ms, 5s, 2m or 1h30m,"
                + " was 'soon'"
                + System.lineSeparator());
  }

  @Test
  void aSourceThatCannotStartFailsWithExitCodeOne() {
    CliRunner.Result result =
        CliRunner.run("topology", "watch", "--etcd", "http://127.0.0.1:1", "--timeout", "200ms");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).startsWith("jumpgate topology watch: no topology from etcd");
  }
}
