package io.jumpgate.it.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.spi.Node;
import io.jumpgate.topology.EtcdClients;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * etcd connection hygiene (issue 14, item 6): the three kinds of jetcd connection the project keeps
 * (a topology watch, the driver's registry lease, an admin connection that makes unary calls only)
 * stay up through busy and idle spells against a real etcd with its default ping enforcement
 * ({@code --grpc-keepalive-min-time 5s}, no pings without a stream): no {@code GOAWAY} (counted
 * from gRPC's log records, logger {@code io.grpc}), no watch restarted or listed again, the
 * registry key on the same lease throughout.
 *
 * <p>Each cycle is {@value #BUSY_SECONDS} s busy (a map change every 200 ms through the admin,
 * commands through the driver) then {@value #IDLE_SECONDS} s idle: more than 4 keepalive periods
 * ({@link EtcdClients#KEEPALIVE_TIME}), the idle time after which a connection pinging without a
 * call is closed with {@code too_many_pings}. One cycle by default (bin/test); {@code
 * -Djumpgate.soak.cycles=10} is the 10-minute soak.
 */
class EtcdConnectionSoakIT {

  static final int BUSY_SECONDS = 10;
  static final int IDLE_SECONDS = 50;
  static final String CLUSTER = "soak";
  static final int SHARDS = 64;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  // 10 cycles of 60 s and the setup; every wait inside is bounded on its own (10 s)
  @Test
  @Timeout(value = 12, unit = TimeUnit.MINUTES)
  void should_keep_watch_lease_and_admin_connections_without_goaway_through_busy_and_idle_spells()
      throws Exception {
    int cycles = Integer.getInteger("jumpgate.soak.cycles", 1);
    assertThat(cycles)
        .as("-Djumpgate.soak.cycles (at most 10 within the test's 12-minute timeout)")
        .isBetween(1, 10);
    GrpcRecords records = new GrpcRecords();
    Logger grpc = Logger.getLogger("io.grpc");
    grpc.addHandler(records);
    try {
      soak(cycles, records);
    } finally {
      grpc.removeHandler(records);
    }
  }

  private void soak(int cycles, GrpcRecords records) throws Exception {
    // Given etcd with its default keepalive enforcement, two Redis nodes and a map over them
    EtcdCluster etcd = fixture.etcd();
    RedisProcess first = fixture.redis();
    RedisProcess second = fixture.redis();
    Map<String, Node> nodes = new LinkedHashMap<>();
    nodes.put("node-0", Node.of("node-0", "127.0.0.1", first.port()));
    nodes.put("node-1", Node.of("node-1", "127.0.0.1", second.port()));
    EtcdTopologyOptions options =
        EtcdTopologyOptions.builder().endpoints(etcd.endpointList()).cluster(CLUSTER).build();
    // an admin connection: unary calls only, no stream ever open on it
    TopologyAdmin admin = fixture.register(TopologyAdmin.create(options));
    admin.init(nodes, SHARDS, 0);
    // a watch: the topology source every client runs, on its own connection
    EtcdTopologySource source = fixture.register(EtcdTopologySource.create(options));
    source.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
    // a registry lease: the driver registers itself (and runs its own watch)
    JumpgateClient driver =
        fixture.register(
            JumpgateClient.create(
                JumpgateOptions.builder()
                    .clientId("soak-it")
                    .etcd(options)
                    // a first connect on a loaded 2-core machine can take seconds
                    .commandTimeout(Duration.ofSeconds(10))
                    .build()));
    JumpgateCommands<String, String> commands = driver.connect().sync();
    String registryKey = "/jumpgate/" + CLUSTER + "/clients/soak-it";
    // the test's own reader, built like every client of the project (it idles too)
    Client reader = fixture.register(EtcdClients.create(options));
    KeyValue registeredAtStart = awaitRegistration(reader, registryKey);
    java.util.logging.Logger grpcLogger = java.util.logging.Logger.getLogger("io.grpc");
    assertThat(grpcLogger.getHandlers())
        .as("gRPC's logging routed to SLF4J (a jul-to-slf4j handler on the io.grpc logger)")
        .anyMatch(
            handler -> handler.getClass().getName().equals("org.slf4j.bridge.SLF4JBridgeHandler"));
    assertThat(grpcLogger.getUseParentHandlers()).isFalse();

    // When the connections are busy, then idle, for each cycle
    long started = System.nanoTime();
    int changes = 0;
    for (int cycle = 1; cycle <= cycles; cycle++) {
      long busyUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(BUSY_SECONDS);
      while (System.nanoTime() < busyUntil) {
        int shard = changes % SHARDS;
        String target =
            admin.read().assignments().get(shard).leader().equals("node-0") ? "node-1" : "node-0";
        TopologyAdminResult result = admin.apply(admin.planMoveShard(shard, target));
        changes++;
        // traffic on the driver's node connections (the moves change the map only, not the data,
        // so a value may be on the old leader: the calls must succeed, their answers do not matter)
        commands.set("soak:" + changes, "v");
        commands.get("soak:" + (changes / 2));
        awaitRevision(source, driver, result.revision());
        TimeUnit.MILLISECONDS.sleep(200); // pacing of the busy spell, not a synchronisation
      }
      long idleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(IDLE_SECONDS);
      while (System.nanoTime() < idleUntil) {
        // nothing is sent by the test meanwhile; stop early once a GOAWAY came
        assertThat(records.goAways()).as("GOAWAYs in idle spell %d", cycle).isEmpty();
        TimeUnit.MILLISECONDS.sleep(500);
      }
      System.out.printf(
          "soak cycle %d/%d: %d map changes so far, %s%n",
          cycle, cycles, changes, source.statistics());
    }
    // and after the last idle spell every connection still works: the admin writes, the watches
    // and the driver see it
    int shard = changes % SHARDS;
    String target =
        admin.read().assignments().get(shard).leader().equals("node-0") ? "node-1" : "node-0";
    long last = admin.apply(admin.planMoveShard(shard, target)).revision();
    awaitRevision(source, driver, last);
    commands.set("soak:last", "v");

    // Then no GOAWAY, no watch restarted, the registry key on its first lease throughout
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
    System.out.printf(
        "soak: %d s, %d cycles, %d map changes, gRPC warnings %s, source %s%n",
        seconds, cycles, changes + 1, records.warnings(), source.statistics());
    assertThat(records.goAways()).as("GOAWAYs received from etcd over %d s", seconds).isEmpty();
    EtcdTopologySource.Statistics statistics = source.statistics();
    assertThat(statistics.watches()).as("watches opened (1: never restarted)").isEqualTo(1);
    assertThat(statistics.lists()).as("listings of the map (1: never started over)").isEqualTo(1);
    assertThat(statistics.silentWatches()).as("watches given up as silent").isZero();
    KeyValue registeredAtEnd = awaitRegistration(reader, registryKey);
    assertThat(registeredAtEnd.getCreateRevision())
        .as("create revision of %s (the key was never deleted)", registryKey)
        .isEqualTo(registeredAtStart.getCreateRevision());
    assertThat(registeredAtEnd.getLease())
        .as("lease of %s", registryKey)
        .isEqualTo(registeredAtStart.getLease());
  }

  private static void awaitRevision(
      EtcdTopologySource source, JumpgateClient driver, long revision) {
    Poll.until(
        Duration.ofSeconds(10),
        "the watch and the driver at revision " + revision,
        () -> source.current().revision() >= revision && driver.topology().revision() >= revision);
  }

  private static KeyValue awaitRegistration(Client reader, String key) {
    List<KeyValue> found = new ArrayList<>();
    Poll.until(
        Duration.ofSeconds(10),
        "the registry key " + key,
        () -> {
          found.clear();
          found.addAll(
              reader
                  .getKVClient()
                  .get(ByteSequence.from(key, StandardCharsets.UTF_8))
                  .get(5, TimeUnit.SECONDS)
                  .getKvs());
          return !found.isEmpty();
        });
    return found.get(0);
  }

  /** gRPC's log records at WARNING and above, and the GOAWAYs among them. Thread-safe. */
  static final class GrpcRecords extends Handler {
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
        StringBuilder text = new StringBuilder(record.getLoggerName()).append(": ");
        text.append(record.getMessage());
        if (record.getParameters() != null) {
          for (Object parameter : record.getParameters()) {
            text.append(" [").append(parameter).append(']');
          }
        }
        warnings.add(text.toString());
      }
    }

    List<String> warnings() {
      return List.copyOf(warnings);
    }

    List<String> goAways() {
      return warnings.stream()
          .filter(text -> text.contains("GOAWAY") || text.contains("too_many_pings"))
          .toList();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
