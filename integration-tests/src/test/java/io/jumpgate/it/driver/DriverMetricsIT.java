package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.jumpgate.cli.JumpgateCli;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * The driver's Micrometer meters and its registration in etcd, against real etcd and redis-server
 * processes; and {@code jumpgate clients} reading that registration.
 */
class DriverMetricsIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private JumpgateClient client(LocalCluster cluster, JumpgateOptions.Builder options) {
    return fixture.register(JumpgateClient.create(options.etcd(cluster.etcdOptions()).build()));
  }

  private Client etcd(LocalCluster cluster) {
    return fixture.register(cluster.etcd().newClient());
  }

  // ---- metrics ---------------------------------------------------------------------------------

  @Test
  void should_move_the_meters_with_commands_and_topology_changes() throws Exception {
    // Given 3 leaders over 64 shards, and a client with a registry
    LocalCluster cluster = LocalCluster.start(fixture, "metrics", 64, 3, 0);
    MeterRegistry registry = new SimpleMeterRegistry();
    JumpgateClient client =
        client(cluster, JumpgateOptions.builder().meterRegistry(registry).clientId("metrics-it"));
    JumpgateCommands<String, String> redis = client.connect().sync();

    // When 200 keys are written and read, and one MGET spans every node
    List<String> keys = new ArrayList<>();
    for (int index = 0; index < 200; index++) {
      String key = "key:" + index;
      keys.add(key);
      redis.set(key, "v" + index);
      assertThat(redis.get(key)).isEqualTo("v" + index);
    }
    assertThat(redis.mget(keys.toArray(String[]::new))).hasSize(200);

    // Then the command timers count them, by command and by node
    assertThat(commands(registry, "SET", "success").count()).isEqualTo(200);
    assertThat(commands(registry, "GET", "success").count()).isEqualTo(200);
    long byNode = 0;
    for (int leader = 0; leader < 3; leader++) {
      Timer timer =
          registry
              .get("jumpgate.node.commands")
              .tags("node", LocalCluster.leaderId(leader), "outcome", "success")
              .timer();
      assertThat(timer.count()).as("commands on leader %d", leader).isPositive();
      byNode += timer.count();
    }
    assertThat(byNode).isGreaterThanOrEqualTo(400);
    // the MGET went to the 3 nodes
    assertThat(registry.get("jumpgate.fanout.nodes").summary().max()).isEqualTo(3);
    // the topology gauges match the snapshot in force
    long revision = client.topology().revision();
    assertThat(gauge(registry, "jumpgate.topology.revision")).isEqualTo(revision);
    assertThat(gauge(registry, "jumpgate.topology.invalid")).isZero();
    assertThat(gauge(registry, "jumpgate.topology.age")).isBetween(0.0, 30.0);
    assertThat(registry.get("jumpgate.topology.updates").counter().count()).isEqualTo(1);
    // one connection per leader used
    assertThat(gauge(registry, "jumpgate.connections")).isEqualTo(3);
    // every meter carries the cluster and the client
    registry
        .getMeters()
        .forEach(
            meter -> {
              assertThat(meter.getId().getTag("cluster")).isEqualTo("metrics");
              assertThat(meter.getId().getTag("client")).isEqualTo("metrics-it");
            });

    // When shard 0 moves to leader-1
    long moved =
        cluster.putValue(
            LocalCluster.shardKey(0), LocalCluster.assignmentJson("leader-1", List.of(), 1));

    // Then the revision gauge follows, and the update is counted
    Poll.until(
        Duration.ofSeconds(5),
        "the revision gauge to reach " + moved,
        () -> gauge(registry, "jumpgate.topology.revision") == moved);
    assertThat(registry.get("jumpgate.topology.updates").counter().count()).isEqualTo(2);

    // When the client closes, its meters are withdrawn
    client.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  private static Timer commands(MeterRegistry registry, String command, String outcome) {
    return registry
        .get("jumpgate.commands")
        .tags("cluster", "metrics", "command", command, "outcome", outcome)
        .timer();
  }

  private static double gauge(MeterRegistry registry, String name) {
    return registry.get(name).gauge().value();
  }

  // ---- registration ----------------------------------------------------------------------------

  @Test
  void should_register_follow_the_topology_come_back_after_a_revoke_and_leave_on_close()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "reg", 16, 1, 0);
    Client etcd = etcd(cluster);
    JumpgateClient client = client(cluster, JumpgateOptions.builder());
    String id = client.clientId().orElseThrow();
    String key = cluster.root() + "clients/" + id;
    assertThat(id).matches("[A-Za-z0-9._-]+:" + ProcessHandle.current().pid() + ":[0-9a-f]{6}");

    // registered at the applied revision
    AtomicReference<KeyValue> entry = new AtomicReference<>();
    Poll.until(
        Duration.ofSeconds(5), "the registration " + key, () -> read(etcd, key, entry) != null);
    JsonNode value = JSON.readTree(entry.get().getValue().getBytes());
    assertThat(value.get("revision").asLong()).isEqualTo(client.topology().revision());
    assertThat(value.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
    assertThat(value.get("host").asText()).isNotBlank();
    assertThat(value.get("cluster").asText()).isEqualTo("reg");
    assertThat(Instant.parse(value.get("since").asText()))
        .isBetween(Instant.now().minusSeconds(120), Instant.now());
    assertThat(entry.get().getLease()).isNotZero();

    // follows a topology change within 2 s
    long changed =
        cluster.putValue(
            LocalCluster.shardKey(3), LocalCluster.assignmentJson("leader-0", List.of(), 1));
    long start = System.nanoTime();
    awaitRegisteredRevision(etcd, key, changed, Duration.ofSeconds(2));
    long followMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println("registration followed a topology change in " + followMillis + " ms");

    // a burst of 30 changes is coalesced
    long versionBefore = read(etcd, key, entry).getVersion();
    long last = 0;
    for (int epoch = 2; epoch < 32; epoch++) {
      last =
          cluster.putValue(
              LocalCluster.shardKey(3), LocalCluster.assignmentJson("leader-0", List.of(), epoch));
    }
    awaitRegisteredRevision(etcd, key, last, Duration.ofSeconds(3));
    long burstWrites = read(etcd, key, entry).getVersion() - versionBefore;
    System.out.println(
        "a burst of 30 topology changes took " + burstWrites + " registration writes");
    assertThat(burstWrites).isBetween(1L, 3L);

    // `jumpgate clients --json` lists it, with lag 0
    JsonNode listing = clientsJson(cluster);
    assertThat(listing.get("revision").asLong()).isEqualTo(last);
    JsonNode listed = null;
    for (JsonNode candidate : listing.get("clients")) {
      if (candidate.get("id").asText().equals(id)) {
        listed = candidate;
      }
    }
    assertThat(listed).as("client %s in %s", id, listing).isNotNull();
    assertThat(listed.get("lag").asLong()).isZero();
    assertThat(listed.get("revision").asLong()).isEqualTo(last);
    assertThat(listed.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());

    // revoked behind its back: registers again under a new lease
    long lease = read(etcd, key, entry).getLease();
    etcd.getLeaseClient().revoke(lease).get(10, TimeUnit.SECONDS);
    long revokedAt = System.nanoTime();
    Poll.until(
        Duration.ofSeconds(15),
        "the registration to come back under a new lease",
        () -> {
          KeyValue now = read(etcd, key, entry);
          return now != null && now.getLease() != lease;
        });
    long backMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - revokedAt);
    System.out.println("registration came back " + backMillis + " ms after its lease was revoked");
    assertThat(JSON.readTree(entry.get().getValue().getBytes()).get("revision").asLong())
        .isEqualTo(client.topology().revision());

    // closing deletes it
    client.close();
    assertThat(read(etcd, key, entry)).isNull();
  }

  @Test
  void should_not_register_when_told_not_to() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "noreg", 16, 1, 0);
    Client etcd = etcd(cluster);
    JumpgateClient client = client(cluster, JumpgateOptions.builder().registration(false));
    client.connect().sync().set("a", "b");
    var listed =
        etcd.getKVClient()
            .get(
                bytes(cluster.root() + "clients/"),
                io.etcd.jetcd.options.GetOption.builder().isPrefix(true).build())
            .get(10, TimeUnit.SECONDS);
    assertThat(listed.getKvs()).isEmpty();
    assertThat(client.clientId()).isEmpty();
    assertThat(clientsJson(cluster).get("clients")).isEmpty();
  }

  private static void awaitRegisteredRevision(
      Client etcd, String key, long revision, Duration timeout) {
    AtomicReference<KeyValue> entry = new AtomicReference<>();
    Poll.until(
        timeout,
        "the registration to reach revision " + revision,
        () -> {
          KeyValue now = read(etcd, key, entry);
          return now != null
              && JSON.readTree(now.getValue().getBytes()).get("revision").asLong() >= revision;
        });
  }

  /** The key's entry now, or null; also left in {@code into}. */
  private static KeyValue read(Client etcd, String key, AtomicReference<KeyValue> into)
      throws Exception {
    List<KeyValue> kvs = etcd.getKVClient().get(bytes(key)).get(10, TimeUnit.SECONDS).getKvs();
    KeyValue entry = kvs.isEmpty() ? null : kvs.get(0);
    into.set(entry);
    return entry;
  }

  /** {@code jumpgate clients --json}, run in-process. */
  private static JsonNode clientsJson(LocalCluster cluster) throws Exception {
    CommandLine commandLine = JumpgateCli.newCommandLine(Map.of());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode =
        commandLine.execute(
            "clients",
            "--json",
            "--etcd",
            cluster.etcd().endpointList(),
            "--cluster",
            cluster.cluster());
    assertThat(exitCode).as("exit code; stderr: %s", err).isZero();
    return JSON.readTree(out.toString());
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
