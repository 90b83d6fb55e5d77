package io.jumpgate.it.topology;

import static io.jumpgate.it.topology.TopologyWriter.nodeJson;
import static io.jumpgate.it.topology.TopologyWriter.shardJson;
import static io.jumpgate.it.topology.TopologyWriter.shardKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.TcpProxy;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link EtcdTopologySource} against real etcd processes. */
class EtcdTopologySourceIT {

  private static final String CLUSTER = "it";
  private static final Duration WAIT = Duration.ofSeconds(20);

  /**
   * The etcd outage of {@link
   * #should_serve_the_last_snapshot_while_etcd_is_down_and_catch_up_after}: 4 times the longest
   * timer of {@link #options} (the 2 s request and silence timeouts; the retry backoff stops
   * growing at 500 ms), so the source goes through several failed calls, silent watches and retries
   * at its longest backoff while etcd is gone.
   */
  private static final Duration OUTAGE = Duration.ofSeconds(8);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final List<TopologySnapshot> seen = new CopyOnWriteArrayList<>();

  private EtcdTopologyOptions.Builder options(String endpoints) {
    return EtcdTopologyOptions.builder()
        .endpoints(endpoints)
        .cluster(CLUSTER)
        .startTimeout(Duration.ofSeconds(10))
        .requestTimeout(Duration.ofSeconds(2))
        .progressInterval(Duration.ofMillis(300))
        .silenceTimeout(Duration.ofSeconds(2))
        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500));
  }

  private EtcdTopologySource started(EtcdTopologyOptions options) throws Exception {
    EtcdTopologySource source = fixture.register(EtcdTopologySource.create(options));
    source.subscribe((previous, current) -> seen.add(current));
    source.start().toCompletableFuture().get(15, TimeUnit.SECONDS);
    return source;
  }

  private static void awaitRevision(EtcdTopologySource source, long revision) {
    Poll.until(
        WAIT,
        "the source to reach revision " + revision,
        () -> source.current().revision() >= revision);
  }

  /**
   * Waits until a listener was told of {@code revision}: the source makes a snapshot current before
   * it tells its listeners, so reaching the revision is not enough for {@link #seen}.
   */
  private void awaitSeen(long revision) {
    Poll.until(
        WAIT,
        "a listener to be told of revision " + revision,
        () -> seen.stream().anyMatch(snapshot -> snapshot.revision() >= revision));
  }

  private static String leaderOf(TopologySnapshot snapshot, int shard) {
    return snapshot.route(shard).leader().id();
  }

  @Test
  void should_load_the_whole_map_at_the_revision_of_the_listing() throws Exception {
    // Given a cluster of 1024 shards over 3 nodes written with plain etcd puts
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      long revision = writer.init(1024, 3);
      // When the source starts
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      // Then the first snapshot is that revision, complete and valid
      TopologySnapshot snapshot = source.current();
      assertThat(snapshot.revision()).isEqualTo(revision);
      assertThat(snapshot.shardCount()).isEqualTo(1024);
      assertThat(snapshot.nodes()).containsOnlyKeys("n0", "n1", "n2");
      assertThat(snapshot.invalidEntries()).isEmpty();
      assertThat(snapshot.unavailableShardCount()).isZero();
      ShardRoute route = snapshot.route(4);
      assertThat(route.leader().id()).isEqualTo("n1");
      assertThat(route.leader().address()).isEqualTo("127.0.0.1:7001");
      assertThat(route.replicas()).extracting(node -> node.id()).containsExactly("n2");
      assertThat(source.status().connected()).isTrue();
      assertThat(source.description()).contains(etcd.endpointList()).contains("'it'");
    }
  }

  @Test
  void should_turn_one_change_into_one_new_snapshot() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(16, 3);
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      seen.clear();
      // When shard 5 moves to n0 with a new epoch
      long revision = writer.put(shardKey(5), shardJson(0, 3, 1));
      awaitSeen(revision);
      // Then exactly one snapshot arrives, at that revision, with the new leader
      assertThat(seen).extracting(TopologySnapshot::revision).containsExactly(revision);
      assertThat(leaderOf(source.current(), 5)).isEqualTo("n0");
      assertThat(source.current().route(5).epoch()).isEqualTo(1);
    }
  }

  @Test
  void should_apply_a_transaction_of_50_shards_as_exactly_one_snapshot() throws Exception {
    // Given 64 shards all led by n0 (one node), then a second node
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(64, 1);
      writer.put("nodes/n1", nodeJson(7001));
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      seen.clear();
      // When one transaction moves shards 0..49 to n1
      Map<String, String> moves = new LinkedHashMap<>();
      for (int shard = 0; shard < 50; shard++) {
        moves.put(shardKey(shard), "{\"leader\":\"n1\",\"epoch\":1}");
      }
      long revision = writer.putAll(moves);
      awaitSeen(revision);
      // Then one snapshot carries all 50 moves, and no snapshot ever mixed old and new
      assertThat(seen).extracting(TopologySnapshot::revision).containsExactly(revision);
      for (TopologySnapshot snapshot : seen) {
        long moved = 0;
        for (int shard = 0; shard < 50; shard++) {
          moved += leaderOf(snapshot, shard).equals("n1") ? 1 : 0;
        }
        assertThat(moved).as("shards on n1 at revision %d", snapshot.revision()).isIn(0L, 50L);
      }
      assertThat(leaderOf(source.current(), 49)).isEqualTo("n1");
      assertThat(leaderOf(source.current(), 50)).isEqualTo("n0");
    }
  }

  @Test
  void should_miss_no_revision_when_etcd_is_killed_and_restarted_mid_watch() throws Exception {
    // Given a source watching a cluster that takes a steady stream of changes
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      long start = writer.init(16, 3);
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      long last = 0;
      for (int change = 1; change <= 120; change++) {
        if (change == 40) {
          // When etcd is killed with SIGKILL and restarted on the same data
          etcd.member(0).kill9();
          etcd.member(0).restart();
        }
        last = putWithRetry(writer, shardKey(change % 16), shardJson(change % 3, 3, change));
      }
      awaitRevision(source, last);
      // Then the source applied every revision etcd has in its history, each exactly once (a
      // snapshot may carry several revisions that queued up behind a rebuild, never part of one)
      TreeSet<Long> history = writer.historyRevisions(start + 1, last);
      List<Long> published = seen.stream().map(TopologySnapshot::revision).toList();
      assertThat(published).doesNotHaveDuplicates().isSorted().endsWith(last);
      assertThat(history)
          .containsAll(published.stream().filter(revision -> revision > start).toList());
      assertThat(source.statistics().revisionsApplied()).isEqualTo(history.size());
      // And the final map equals etcd's
      for (int shard = 0; shard < 16; shard++) {
        assertThat(source.current().route(shard).epoch())
            .as("epoch of shard %d", shard)
            .isEqualTo(epochInEtcd(writer, shard));
      }
    }
  }

  @Test
  void should_list_again_and_converge_when_etcd_compacted_while_the_source_was_cut_off()
      throws Exception {
    // Given a source that reaches etcd through a relay
    EtcdCluster etcd = fixture.etcd();
    TcpProxy relay = fixture.register(TcpProxy.start("127.0.0.1", etcd.member(0).clientPort()));
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(16, 3);
      EtcdTopologySource source = started(options(relay.httpEndpoint()).build());
      long listsBefore = source.statistics().lists();
      // When the relay is cut, the map changes many times, and etcd compacts its history
      relay.cut();
      long lastShardWrite = 0;
      for (int change = 1; change <= 30; change++) {
        lastShardWrite = writer.put(shardKey(change % 16), shardJson(change % 3, 3, change));
      }
      writer.put("nodes/n3", nodeJson(7003));
      long last = writer.delete("nodes/n3");
      writer.compact(last);
      relay.restore();
      // Then the source lists again and ends with etcd's map
      Poll.until(
          WAIT,
          "the source's watch to reach revision " + last,
          () -> source.lastAppliedRevision() >= last);
      assertThat(source.statistics().lists()).isGreaterThan(listsBefore);
      assertThat(source.current().revision())
          .as("the map revision: n3 came and went unseen, the listing's last write is a shard's")
          .isEqualTo(lastShardWrite);
      assertThat(source.current().nodes()).containsOnlyKeys("n0", "n1", "n2");
      for (int shard = 0; shard < 16; shard++) {
        assertThat(source.current().route(shard).epoch())
            .as("epoch of shard %d", shard)
            .isEqualTo(epochInEtcd(writer, shard));
      }
    }
  }

  @Test
  void should_serve_the_last_snapshot_while_etcd_is_down_and_catch_up_after() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      long revision = writer.init(16, 3);
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      // When etcd is down for OUTAGE (4 times the longest timer of these options)
      etcd.member(0).kill9();
      Instant downSince = Instant.now();
      Poll.until(WAIT, "the source to notice etcd is gone", () -> !source.status().connected());
      Poll.until(
          OUTAGE.plusSeconds(20),
          OUTAGE.toSeconds() + " s of outage",
          () -> {
            // Then the last snapshot is still served all along, and its age grows
            assertThat(source.current().revision()).isEqualTo(revision);
            return Duration.between(downSince, Instant.now()).compareTo(OUTAGE) >= 0;
          });
      Duration age = source.status().ageAt(Instant.now());
      assertThat(age).isGreaterThanOrEqualTo(OUTAGE.minusSeconds(1));
      assertThat(source.status().lastError()).isNotBlank();
      // And when etcd is back, a change made then arrives
      etcd.member(0).restart();
      long change = putWithRetry(writer, shardKey(3), shardJson(0, 3, 9));
      awaitRevision(source, change);
      assertThat(source.status().connected()).isTrue();
      assertThat(source.status().ageAt(Instant.now())).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void should_keep_invalid_entries_out_and_report_them() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(16, 3);
      // A shard whose entry was never valid
      writer.put(shardKey(7), "{not json");
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      assertThat(source.current().route(7).isAvailable()).isFalse();
      assertThat(source.current().route(7).unavailableReason()).containsIgnoringCase("json");
      // When invalid values land on keys that had valid ones
      Map<String, String> bad = new LinkedHashMap<>();
      bad.put(shardKey(3), "{\"leader\":\"n0\",\"replicas\":[\"n0\"]}"); // leader in replicas
      bad.put(shardKey(4), "{\"leader\":\"ghost\",\"epoch\":5}"); // unknown node
      bad.put(shardKey(5), "][");
      bad.put("shards/16", "{\"leader\":\"n0\"}"); // out of range for 16 shards
      bad.put("nodes/n9", "{\"host\":\"127.0.0.1\",\"port\":70000}"); // port out of range
      long revision = writer.putAll(bad);
      awaitRevision(source, revision);
      // Then the last valid values stay in force and every bad key is reported
      TopologySnapshot snapshot = source.current();
      assertThat(leaderOf(snapshot, 3)).isEqualTo("n0");
      assertThat(snapshot.route(3).replicas()).extracting(node -> node.id()).containsExactly("n1");
      assertThat(leaderOf(snapshot, 4)).isEqualTo("n1");
      assertThat(leaderOf(snapshot, 5)).isEqualTo("n2");
      assertThat(snapshot.nodes()).doesNotContainKey("n9");
      Map<String, String> reasons =
          snapshot.invalidEntries().stream()
              .collect(Collectors.toMap(InvalidEntry::key, InvalidEntry::reason));
      String root = writer.root();
      assertThat(reasons)
          .containsKeys(
              root + "shards/0003",
              root + "shards/0004",
              root + "shards/0005",
              root + "shards/0007",
              root + "shards/16",
              root + "nodes/n9");
      assertThat(reasons.get(root + "shards/0004")).contains("ghost");
      assertThat(reasons.get(root + "nodes/n9")).contains("70000");
      // And fixing a key brings it back
      long fixed = writer.put(shardKey(4), "{\"leader\":\"n2\",\"epoch\":1}");
      awaitRevision(source, fixed);
      assertThat(leaderOf(source.current(), 4)).isEqualTo("n2");
      assertThat(source.current().invalidEntries())
          .extracting(InvalidEntry::key)
          .doesNotContain(root + "shards/0004");
    }
  }

  @Test
  void should_stay_current_when_one_member_of_three_is_lost() throws Exception {
    EtcdCluster etcd = fixture.etcdCluster(3);
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(16, 3);
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      // When any one member dies, changes made through the others still arrive
      for (int member = 0; member < 3; member++) {
        etcd.member(member).kill9();
        try (TopologyWriter survivor =
            new TopologyWriter(etcd.member((member + 1) % 3).endpoint(), CLUSTER)) {
          // A put may time out while the survivors elect a new leader: retried, bounded.
          long revision = putWithRetry(survivor, shardKey(member), shardJson(2, 3, 10 + member));
          awaitRevision(source, revision);
          assertThat(source.current().route(member).epoch()).isEqualTo(10 + member);
        }
        etcd.member(member).restart();
      }
    }
  }

  @Test
  void should_use_credentials_and_refuse_wrong_ones_with_a_clear_error() throws Exception {
    // Given etcd with authentication on
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(16, 3);
    }
    etcd.etcdctl("user", "add", "root:root-secret").ok();
    etcd.etcdctl("auth", "enable").ok();
    // When the right credentials are given, the map loads
    EtcdTopologySource source =
        started(options(etcd.endpointList()).credentials("root", "root-secret").build());
    assertThat(source.current().shardCount()).isEqualTo(16);
    // And wrong ones fail start with a typed error naming the endpoint, well before the timeout
    EtcdTopologySource wrong =
        fixture.register(
            EtcdTopologySource.create(
                options(etcd.endpointList()).credentials("root", "not-it").build()));
    long startedAt = System.nanoTime();
    assertThatThrownBy(() -> wrong.start().toCompletableFuture().get(15, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageContaining(etcd.endpointList())
        .hasMessageContaining("authentication failed")
        .hasMessageContaining("refused access")
        .message()
        .doesNotContain("not-it");
    assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void should_say_the_cluster_is_not_initialised() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    EtcdTopologySource source =
        fixture.register(EtcdTopologySource.create(options(etcd.endpointList()).build()));
    assertThatThrownBy(() -> source.start().toCompletableFuture().get(15, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageContaining("cluster 'it' is not initialised at /jumpgate/it")
        .hasMessageContaining("jumpgate init")
        .hasMessageEndingWith("; no cluster exists under /jumpgate/");
  }

  @Test
  void should_name_the_clusters_that_exist_when_the_cluster_is_not_initialised() throws Exception {
    // Given three other clusters under the prefix (one a name that sorts between "beta" and
    // "beta/"), a key outside any cluster, and the map of none at /jumpgate/it
    EtcdCluster etcd = fixture.etcd();
    for (String key :
        List.of(
            "/jumpgate/alpha/meta",
            "/jumpgate/beta/shards/0",
            "/jumpgate/beta/clients/app-1",
            "/jumpgate/beta-2/nodes/n1",
            "/jumpgate/stray",
            "/other/it/meta")) {
      etcd.etcdctl("put", key, "{}");
    }
    EtcdTopologySource source =
        fixture.register(EtcdTopologySource.create(options(etcd.endpointList()).build()));
    // When it starts, Then the error names each cluster once, in key order, and no stray key
    assertThatThrownBy(() -> source.start().toCompletableFuture().get(15, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessage(
            "cluster 'it' is not initialised at /jumpgate/it — run `jumpgate init`;"
                + " clusters under /jumpgate/: alpha, beta-2, beta");
  }

  @Test
  void should_fail_start_after_the_start_timeout_when_etcd_is_unreachable() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    String endpoint = etcd.endpointList();
    etcd.member(0).kill9();
    EtcdTopologySource source =
        fixture.register(
            EtcdTopologySource.create(
                options(endpoint).startTimeout(Duration.ofSeconds(2)).build()));
    long startedAt = System.nanoTime();
    assertThatThrownBy(() -> source.start().toCompletableFuture().get(15, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageContaining(endpoint)
        .hasMessageContaining("2000 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isLessThan(Duration.ofSeconds(6));
    assertThatThrownBy(source::current).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void should_report_the_time_from_a_put_to_the_new_snapshot_over_200_changes() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(1024, 3);
      EtcdTopologySource source = started(options(etcd.endpointList()).build());
      Map<Long, Long> arrivedAt = new java.util.concurrent.ConcurrentHashMap<>();
      source.subscribe((previous, current) -> arrivedAt.put(current.revision(), System.nanoTime()));
      List<Long> micros = new ArrayList<>();
      for (int change = 1; change <= 200; change++) {
        long revision = writer.put(shardKey(change % 1024), shardJson(change % 3, 3, change));
        long returnedAt = System.nanoTime();
        Poll.until(WAIT, "revision " + revision, () -> arrivedAt.containsKey(revision));
        micros.add(Math.max(0, arrivedAt.get(revision) - returnedAt) / 1000);
      }
      micros.sort(null);
      System.out.printf(
          "put -> snapshot over %d changes (1024 shards): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
          micros.size(),
          micros.get(micros.size() / 2) / 1000.0,
          micros.get((int) Math.ceil(micros.size() * 0.99) - 1) / 1000.0,
          micros.get(micros.size() - 1) / 1000.0);
      assertThat(micros).hasSize(200);
    }
  }

  private static long putWithRetry(TopologyWriter writer, String key, String value)
      throws Exception {
    Exception last = null;
    for (int attempt = 0; attempt < 50; attempt++) {
      try {
        return writer.put(key, value);
      } catch (Exception e) {
        last = e;
        Thread.sleep(100); // backoff between attempts while etcd comes back, not a synchronisation
      }
    }
    throw last;
  }

  private static long epochInEtcd(TopologyWriter writer, int shard) throws Exception {
    String json = writer.get(shardKey(shard));
    var matcher = java.util.regex.Pattern.compile("\"epoch\":(\\d+)").matcher(json);
    return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
  }
}
