package io.jumpgate.it.topology;

import static io.jumpgate.it.topology.TopologyWriter.shardJson;
import static io.jumpgate.it.topology.TopologyWriter.shardKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import io.jumpgate.topology.TopologyAdmin;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reading rule 1 of the topology contract: a client lists and watches the map's key range ({@code
 * <root>/meta} to {@code <root>/shards0}), so the registry writes of other clients ({@code
 * clients/}) and an init's lock ({@code init-lock}) never reach it, and one change of the map costs
 * etcd about one watch event per client instead of one per client squared.
 */
// Runs alone (the "alone" run in integration-tests/pom.xml): 200 clients watching at once
@Tag("timing-sensitive")
class MapWatchScopeIT {

  private static final String CLUSTER = "scope";
  private static final Duration WAIT = Duration.ofSeconds(30);

  /**
   * Clients of the fleet test; {@code -Djumpgate.it.mapWatchClients=200} gives the figure of issue
   * 19.
   */
  private static final int FLEET = Integer.getInteger("jumpgate.it.mapWatchClients", 200);

  /** The acceptance bound of issue 19: watch events etcd sends per client for one map change. */
  private static final double MAX_EVENTS_PER_CLIENT = 3;

  private static final Pattern EVENTS_TOTAL =
      Pattern.compile("(?m)^etcd_debugging_mvcc_events_total ([0-9.e+]+)$");
  private static final Pattern REVISION = Pattern.compile("\"revision\":([0-9]+)");

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_receive_no_registry_or_init_lock_write_and_one_revision_per_map_change()
      throws Exception {
    // Given 3 sources watching a 16-shard map
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      long start = writer.init(16, 3);
      List<EtcdTopologySource> sources = new ArrayList<>();
      List<List<TopologySnapshot>> published = new ArrayList<>();
      for (int index = 0; index < 3; index++) {
        EtcdTopologySource source = fixture.register(EtcdTopologySource.create(options(etcd)));
        List<TopologySnapshot> seen = new CopyOnWriteArrayList<>();
        source.subscribe((previous, current) -> seen.add(current));
        source.start().toCompletableFuture().get(15, TimeUnit.SECONDS);
        sources.add(source);
        published.add(seen);
      }
      List<EtcdTopologySource.Statistics> before = statistics(sources);

      // When 20 other clients register and re-register, an init takes and drops its lock, and
      // then one put changes the map
      for (int round = 0; round < 2; round++) {
        for (int client = 0; client < 20; client++) {
          writer.put(
              "clients/app-" + client,
              "{\"host\":\"app\",\"pid\":" + client + ",\"revision\":" + (start + round) + "}");
        }
      }
      writer.put("init-lock", "{\"token\":\"t-1\"}");
      writer.delete("init-lock");
      long changed = writer.put(shardKey(5), shardJson(0, 3, 1));
      for (EtcdTopologySource source : sources) {
        Poll.until(
            WAIT,
            "a source to reach revision " + changed,
            () -> source.current().revision() >= changed);
      }

      // Then each source received the map change alone: one event, one revision, one snapshot
      for (int index = 0; index < sources.size(); index++) {
        EtcdTopologySource.Statistics now = sources.get(index).statistics();
        assertThat(now.watchEvents() - before.get(index).watchEvents())
            .as("watch events received by source %d (42 writes outside the map, 1 in it)", index)
            .isEqualTo(1);
        assertThat(now.revisionsApplied() - before.get(index).revisionsApplied())
            .as("revisions received by source %d", index)
            .isEqualTo(1);
        assertThat(published.get(index))
            .extracting(TopologySnapshot::revision)
            .endsWith(changed)
            .filteredOn(revision -> revision > start)
            .containsExactly(changed);
      }

      // When a mover takes the migration lock and records a migration: both are in the map's
      // range; the lock publishes a snapshot (it decides whether a freeze holds), the record not
      long locked = writer.put("migration-lock", "{\"migration\":\"m-1\",\"owner\":\"mover:1\"}");
      long recorded =
          writer.put("migrations/m-1", "{\"shards\":{\"7\":{\"from\":\"n1\",\"to\":\"n2\"}}}");
      long moved = writer.put(shardKey(6), shardJson(1, 3, 1));
      for (EtcdTopologySource source : sources) {
        Poll.until(
            WAIT,
            "a source to reach revision " + moved,
            () -> source.current().revision() >= moved);
      }

      // Then they arrive (the range holds them) and are not invalid entries
      for (int index = 0; index < sources.size(); index++) {
        EtcdTopologySource source = sources.get(index);
        assertThat(source.statistics().revisionsApplied() - before.get(index).revisionsApplied())
            .as("revisions received by source %d", index)
            .isEqualTo(4);
        // the lock's snapshot (if the lock's revision was not built together with the next one)
        // keeps the map's revision: the lock is not a change of the map
        assertThat(published.get(index))
            .extracting(TopologySnapshot::revision)
            .filteredOn(revision -> revision > start)
            .as(
                "snapshots of source %d (lock at %d, migration record at %d)",
                index, locked, recorded)
            .containsOnly(changed, moved)
            .endsWith(moved);
        assertThat(source.current().invalidEntries()).isEmpty();
      }
    }
  }

  @Test
  void should_make_etcd_send_at_most_3_watch_events_per_client_for_one_map_change()
      throws Exception {
    // Given a fleet of registered clients on one etcd
    EtcdCluster etcd = fixture.etcd();
    EtcdTopologyOptions options = options(etcd);
    TopologyAdmin admin = fixture.register(TopologyAdmin.create(options));
    Map<String, Node> nodes = new LinkedHashMap<>();
    for (int index = 0; index < 3; index++) {
      // never contacted: no command is sent
      nodes.put("node-" + index, Node.of("node-" + index, "127.0.0.1", 16379 + index));
    }
    admin.init(nodes, 1024, 1);
    long startNanos = System.nanoTime();
    List<JumpgateClient> fleet = startFleet(options, FLEET);
    long startedNanos = System.nanoTime();
    Client reader = fixture.register(etcd.newClient());
    long initial = fleet.get(0).topology().revision();
    awaitRegistrations(reader, FLEET, initial);
    double before = eventsTotal(etcd);

    // When one shard moves to its replica
    ShardRoute route = fleet.get(0).topology().route(5);
    long changed = admin.apply(admin.planMoveShard(5, route.replicas().get(0).id())).revision();

    // Then, once every client applied it and re-wrote its registration, etcd sent ~1 event each
    Poll.until(
        WAIT,
        "every client to apply revision " + changed,
        () -> fleet.stream().allMatch(client -> client.topology().revision() >= changed));
    awaitRegistrations(reader, FLEET, changed);
    double sent = eventsTotal(etcd) - before;
    double perClient = sent / FLEET;
    System.out.printf(
        Locale.ROOT,
        "map watch scope: %d clients (started in %d ms), one move-shard: etcd sent %.0f watch"
            + " events, %.2f per client (bound %.0f)%n",
        FLEET,
        TimeUnit.NANOSECONDS.toMillis(startedNanos - startNanos),
        sent,
        perClient,
        MAX_EVENTS_PER_CLIENT);
    assertThat(perClient)
        .as("watch events per client for one map change (%.0f for %d clients)", sent, FLEET)
        .isLessThanOrEqualTo(MAX_EVENTS_PER_CLIENT);
  }

  private static EtcdTopologyOptions options(EtcdCluster etcd) {
    return EtcdTopologyOptions.builder().endpoints(etcd.endpointList()).cluster(CLUSTER).build();
  }

  private static List<EtcdTopologySource.Statistics> statistics(List<EtcdTopologySource> sources) {
    return sources.stream().map(EtcdTopologySource::statistics).toList();
  }

  /** Starts the clients four at a time: each waits for its first map, as an application does. */
  private List<JumpgateClient> startFleet(EtcdTopologyOptions options, int count) throws Exception {
    ClientResources resources = DefaultClientResources.create();
    fixture.register(() -> resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS));
    ExecutorService starter = Executors.newFixedThreadPool(4);
    try {
      List<Future<JumpgateClient>> starting = new ArrayList<>();
      for (int index = 0; index < count; index++) {
        String clientId = "app-" + index;
        starting.add(
            starter.submit(
                () ->
                    fixture.register(
                        JumpgateClient.create(
                            JumpgateOptions.builder()
                                .etcd(options)
                                .clientResources(resources)
                                .clientId(clientId)
                                .build()))));
      }
      List<JumpgateClient> fleet = new ArrayList<>();
      for (Future<JumpgateClient> client : starting) {
        fleet.add(client.get(60, TimeUnit.SECONDS));
      }
      return fleet;
    } finally {
      starter.shutdownNow();
    }
  }

  /**
   * Waits until {@code count} registry keys exist and each holds a revision >= {@code revision}.
   */
  private static void awaitRegistrations(Client reader, int count, long revision) {
    ByteSequence prefix =
        ByteSequence.from("/jumpgate/" + CLUSTER + "/clients/", StandardCharsets.UTF_8);
    Poll.until(
        WAIT,
        count + " registrations at revision " + revision + " or later",
        () -> {
          List<KeyValue> keys =
              reader
                  .getKVClient()
                  .get(prefix, GetOption.builder().isPrefix(true).build())
                  .get(10, TimeUnit.SECONDS)
                  .getKvs();
          long current = 0;
          for (KeyValue key : keys) {
            Matcher matcher = REVISION.matcher(key.getValue().toString(StandardCharsets.UTF_8));
            if (matcher.find() && Long.parseLong(matcher.group(1)) >= revision) {
              current++;
            }
          }
          return keys.size() == count && current == count;
        });
  }

  /** etcd's count of watch events it has sent, from its Prometheus endpoint. */
  private static double eventsTotal(EtcdCluster etcd) throws Exception {
    URI metrics = URI.create("http://127.0.0.1:" + etcd.member(0).clientPort() + "/metrics");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    Matcher matcher = EVENTS_TOTAL.matcher(response.body());
    if (!matcher.find()) {
      throw new AssertionError("no etcd_debugging_mvcc_events_total in " + metrics);
    }
    return Double.parseDouble(matcher.group(1));
  }
}
