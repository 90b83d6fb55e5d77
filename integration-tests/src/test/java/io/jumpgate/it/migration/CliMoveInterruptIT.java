package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ctrl-C on {@code jumpgate add-node --apply}, end to end: the runnable CLI jar, as {@code
 * bin/jumpgate} runs it, is sent SIGINT while it copies (a copy-rate bound keeps the copy long
 * enough to be caught in it), against real etcd and redis-server processes. It stops within a
 * bound, says that the record stays and how to finish, releases the lock and restores the sources'
 * {@code notify-keyspace-events}, leaves no shard frozen and every key readable where the map
 * points; the same command run again finishes the move with every key on exactly its owner.
 */
class CliMoveInterruptIT {

  private static final int SHARDS = 256;
  private static final int KEYS = 30_000;
  private static final String NEW_NODE = "n3";
  private static final Duration COPY_STARTS_WITHIN = Duration.ofSeconds(60);
  private static final Duration STOPS_WITHIN = Duration.ofSeconds(30);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void ctrl_c_during_the_copy_stops_cleanly_and_the_same_command_finishes_the_move()
      throws Exception {
    Path jar =
        Path.of(System.getProperty("jumpgate.cli.jar", "../cli/target/jumpgate.jar"))
            .toAbsolutePath()
            .normalize();
    assertThat(jar).as("the runnable CLI jar (mvn -pl cli -am package builds it)").isRegularFile();
    // Given three leaders holding 30,000 keys on their owners, and an empty server
    LocalCluster cluster = LocalCluster.start(fixture, "cli-interrupt", SHARDS, 3, 0);
    RedisProcess newServer = fixture.redis();
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    Map<String, RedisProcess> servers = new LinkedHashMap<>();
    for (int index = 0; index < 3; index++) {
      servers.put(LocalCluster.leaderId(index), cluster.leader(index));
    }
    servers.put(NEW_NODE, newServer);
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    Map<String, String> data = new LinkedHashMap<>();
    Map<String, Boolean> dataTtl = new HashMap<>();
    writeKeysToTheirOwners(cluster, router, data, dataTtl);
    List<String> addNode =
        List.of(
            "add-node",
            NEW_NODE + "=127.0.0.1:" + newServer.port(),
            "--apply",
            "--cleanup-grace",
            "1s",
            "--etcd",
            cluster.etcd().endpointList(),
            "--cluster",
            cluster.cluster());

    // When the CLI is sent SIGINT once its copy has started (2,000 keys/s: 7,500 keys move)
    List<String> slow = new ArrayList<>(addNode);
    slow.addAll(List.of("--copy-rate", "2000"));
    Process process = start(jar, slow);
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    StringBuilder output = new StringBuilder();
    Thread reader = readLines(process, lines, output);
    String copyLine = awaitLine(lines, "copy ", COPY_STARTS_WITHIN, output);
    // A JVM started with SIGINT ignored (a build run as a background job of a non-interactive
    // shell passes that down) never sees Ctrl-C; SIGTERM takes the same path in the CLI.
    String signal = sigintIgnoredHere() ? "-TERM" : "-INT";
    System.out.println("CLI-MOVE-INTERRUPT sending kill " + signal);
    Process kill =
        new ProcessBuilder("kill", signal, Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).as("kill -INT returned").isTrue();
    boolean exited = process.waitFor(STOPS_WITHIN.toSeconds(), TimeUnit.SECONDS);
    reader.join(TimeUnit.SECONDS.toMillis(10));

    // Then it stops within the bound, says the record stays and how to finish
    assertThat(exited)
        .as("the CLI exits within %s of SIGINT; it printed:%n%s", STOPS_WITHIN, output)
        .isTrue();
    assertThat(process.exitValue()).as(output.toString()).isNotZero();
    assertThat(copyLine).contains("shards 0/64");
    assertThat(output.toString())
        .as("what the CLI printed")
        .contains("at about 2,000 keys/s the copy takes about")
        .contains("the record of migration add-node-" + NEW_NODE + " stays")
        .contains("run the same command again");
    // and the cluster keeps serving from the sources: no lock, the record kept, nothing cut over,
    // no shard frozen, change capture switched off again on every source
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.readLock()).as("the migration lock").isEmpty();
      assertThat(store.listRecords()).hasSize(1);
    }
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      for (ShardAssignment assignment : admin.read().assignments().values()) {
        assertThat(assignment.state()).isNotEqualTo(ShardState.FROZEN);
        assertThat(assignment.leader()).isNotEqualTo(NEW_NODE);
      }
    }
    for (int index = 0; index < 3; index++) {
      assertThat(cluster.leader(index).call("CONFIG", "GET", "notify-keyspace-events"))
          .as("notify-keyspace-events on %s after the interrupt", LocalCluster.leaderId(index))
          .isEqualTo(List.of("notify-keyspace-events", ""));
    }

    // When the same command runs again, without the bound
    Process again = start(jar, addNode);
    LinkedBlockingQueue<String> againLines = new LinkedBlockingQueue<>();
    StringBuilder againOutput = new StringBuilder();
    Thread againReader = readLines(again, againLines, againOutput);
    boolean finished = again.waitFor(120, TimeUnit.SECONDS);
    againReader.join(TimeUnit.SECONDS.toMillis(10));
    System.out.print("CLI-MOVE-INTERRUPT first run:\n" + output + "second run:\n" + againOutput);

    // Then it finishes the move: every key on exactly its owner with its value and TTL
    assertThat(finished).as("the second run ends within 120 s:%n%s", againOutput).isTrue();
    assertThat(again.exitValue()).as(againOutput.toString()).isZero();
    assertThat(againOutput.toString()).contains("moved 64 of 64 shard(s) with their data");
    OwnerCheck.assertEveryKeyOnItsOwner(etcd, servers, router, null, data, dataTtl);
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
  }

  /** Whether this process (and so the CLI it starts) has SIGINT ignored: bit 1 of SigIgn. */
  private static boolean sigintIgnoredHere() throws IOException {
    for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
        return (mask & (1L << 1)) != 0;
      }
    }
    return false;
  }

  private Process start(Path jar, List<String> arguments) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // as bin/jumpgate runs add-node: the JIT's first tier only (less CPU for a run of seconds)
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("JUMPGATE_DEBUG", "1");
    Process process = builder.start();
    fixture.register(
        () -> {
          if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
          }
        });
    return process;
  }

  /** Copies the process's output, line by line, into {@code lines} and {@code all}. */
  private static Thread readLines(
      Process process, LinkedBlockingQueue<String> lines, StringBuilder all) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  synchronized (all) {
                    all.append(line).append('\n');
                  }
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("(output unreadable: " + e + ")");
              }
            },
            "cli-output");
    reader.setDaemon(true);
    reader.start();
    return reader;
  }

  private static String awaitLine(
      LinkedBlockingQueue<String> lines, String prefix, Duration within, StringBuilder all)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
      if (line == null) {
        synchronized (all) {
          throw new AssertionError(
              "no line starting with '" + prefix + "' within " + within + "; output:\n" + all);
        }
      }
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  /** 30,000 keys, one in five with a TTL, each on the leader of its shard. */
  private void writeKeysToTheirOwners(
      LocalCluster cluster,
      Xxh64JumpRouter router,
      Map<String, String> data,
      Map<String, Boolean> dataTtl) {
    RedisClient redis = RedisClient.create();
    fixture.register(() -> redis.shutdown(Duration.ZERO, Duration.ofSeconds(5)));
    List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
    for (RedisProcess leader : cluster.leaders()) {
      connections.add(
          fixture.register(
              redis.connect(
                  RedisURI.builder()
                      .withHost("127.0.0.1")
                      .withPort(leader.port())
                      .withTimeout(Duration.ofSeconds(30))
                      .build())));
    }
    List<RedisFuture<?>> futures = new ArrayList<>();
    for (int index = 0; index < KEYS; index++) {
      String key = "key:" + index;
      String value = "value-" + index;
      data.put(key, value);
      dataTtl.put(key, index % 5 == 0);
      RedisAsyncCommands<String, String> owner =
          connections.get(router.shardOfUtf8(key) % connections.size()).async();
      futures.add(owner.set(key, value));
      if (index % 5 == 0) {
        futures.add(owner.pexpire(key, 600_000));
      }
    }
    assertThat(LettuceFutures.awaitAll(30, TimeUnit.SECONDS, futures.toArray(RedisFuture[]::new)))
        .as("30,000 keys written within 30 s")
        .isTrue();
  }
}
