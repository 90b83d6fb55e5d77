package io.jumpgate.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large and hostile maps in a real etcd: 65536 shards over 1000 node entries (which all point at 3
 * real redis-servers, so a client routes real traffic through them), values of several MB, and a
 * node entry rewritten 100 times a second under load. Prints what it measures; asserts only
 * generous bounds (the machine is shared by other builds).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Runs alone (the "alone" run in integration-tests/pom.xml): the data path within 250 ms while an
// entry flaps
@Tag("timing-sensitive")
class HostileTopologyIT {

  private static final String CLUSTER = "big";
  private static final int SHARDS = 65536;
  private static final int NODES = 1000;
  private static final String FLAPPING = "n999";
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);

  @RegisterExtension static final ProcessFixture FIXTURE = new ProcessFixture();

  private static EtcdCluster etcd;
  private static final RedisProcess[] REDIS = new RedisProcess[3];
  private static Client writer;
  private static long mapRevision;

  @BeforeAll
  static void writeTheBigMap() throws Exception {
    // Room for values of several MB and for big transactions (etcd 3.4 defaults: 1.5 MiB, 128).
    etcd =
        FIXTURE.etcd(
            EtcdCluster.options().extraArgs("--max-request-bytes=16777216", "--max-txn-ops=10000"));
    for (int i = 0; i < REDIS.length; i++) {
      REDIS[i] = FIXTURE.redis();
    }
    writer = etcd.newClient();
    long start = System.nanoTime();
    List<Op> puts = new ArrayList<>();
    for (int node = 0; node < NODES; node++) {
      puts.add(put("nodes/n" + node, nodeJson(REDIS[node % REDIS.length].port(), 0)));
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      puts.add(put(String.format("shards/%04d", shard), shardJson(shard)));
      if (puts.size() == 5000) {
        txn(puts);
        puts.clear();
      }
    }
    txn(puts);
    mapRevision =
        writer
            .getKVClient()
            .put(
                bytes(root() + "meta"),
                bytes("{\"format\":1,\"shards\":" + SHARDS + ",\"routing\":\"xxh64-jump\"}"))
            .get(30, TimeUnit.SECONDS)
            .getHeader()
            .getRevision();
    System.out.printf(
        "hostile: wrote %d shards and %d nodes to etcd in %d ms%n",
        SHARDS, NODES, (System.nanoTime() - start) / 1_000_000);
  }

  @AfterAll
  static void closeWriter() {
    if (writer != null) {
      writer.close();
    }
  }

  // ---- the big map --------------------------------------------------------------------------

  @Test
  @Order(1)
  void should_load_65536_shards_over_1000_nodes_and_route_real_traffic_through_them()
      throws Exception {
    long heapBefore = usedHeapAfterGc();
    long start = System.nanoTime();
    EtcdTopologySource source = EtcdTopologySource.create(sourceOptions(CLUSTER));
    TopologySnapshot snapshot = source.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
    long loadMillis = (System.nanoTime() - start) / 1_000_000;
    long heapLoaded = usedHeapAfterGc();
    source.close();

    assertThat(snapshot.revision()).isEqualTo(mapRevision);
    assertThat(snapshot.shardCount()).isEqualTo(SHARDS);
    assertThat(snapshot.nodes()).hasSize(NODES);
    assertThat(snapshot.invalidEntries()).isEmpty();
    assertThat(snapshot.unavailableShardCount()).isZero();
    assertThat(snapshot.route(12345).leader().id()).isEqualTo("n345");
    assertThat(snapshot.route(12345).replicas()).extracting(Node::id).containsExactly("n346");
    int shards = snapshot.shardCount();
    System.out.printf(
        "hostile: EtcdTopologySource loaded %d shards / %d nodes in %d ms; heap after GC grew by"
            + " %.1f MB with the running source and its snapshot%n",
        shards, NODES, loadMillis, (heapLoaded - heapBefore) / 1e6);
    assertThat(heapLoaded - heapBefore).as("heap of the source").isLessThan(512L << 20);
    // Generous: measured about a second on an idle machine.
    assertThat(Duration.ofMillis(loadMillis)).isLessThan(Duration.ofSeconds(30));

    // A client routes through the 1000 node entries to the 3 real servers behind them.
    start = System.nanoTime();
    JumpgateClient client = FIXTURE.register(JumpgateClient.create(clientOptions(CLUSTER)));
    long createMillis = (System.nanoTime() - start) / 1_000_000;
    JumpgateCommands<String, String> redis = client.connect().sync();
    int keys = 2000;
    start = System.nanoTime();
    for (int i = 0; i < keys; i++) {
      redis.set("big:" + i, "v" + i);
    }
    long setMillis = (System.nanoTime() - start) / 1_000_000;
    for (int i = 0; i < keys; i++) {
      String key = "big:" + i;
      int shard = ROUTER.shardOfUtf8(key);
      int leader = shard % NODES;
      RedisProcess server = REDIS[leader % REDIS.length];
      assertThat(server.call("GET", key))
          .as("%s (shard %d, leader n%d) on %s", key, shard, leader, server.address())
          .isEqualTo("v" + i);
      assertThat(redis.get(key)).isEqualTo("v" + i);
    }
    System.out.printf(
        "hostile: JumpgateClient.create on the big map took %d ms; %d SETs to %d distinct shards"
            + " took %d ms (connections opened on first use)%n",
        createMillis, keys, keys, setMillis);
  }

  // ---- a node entry flapping ----------------------------------------------------------------

  @Test
  @Order(2)
  void should_keep_rebuilds_bounded_and_the_data_path_fast_while_a_node_entry_flaps()
      throws Exception {
    EtcdTopologySource observer =
        FIXTURE.register(EtcdTopologySource.create(sourceOptions(CLUSTER)));
    AtomicInteger published = new AtomicInteger();
    observer.subscribe((previous, current) -> published.incrementAndGet());
    observer.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
    JumpgateClient client = FIXTURE.register(JumpgateClient.create(clientOptions(CLUSTER)));
    JumpgateCommands<String, String> redis = client.connect().sync();
    // Keys on shards that neither lead nor replicate on the flapping node.
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < 200; i++) {
      int node = ROUTER.shardOfUtf8("flap:" + i) % NODES;
      if (node != 999 && node != 998) {
        keys.add("flap:" + i);
      }
    }
    for (String key : keys) {
      redis.set(key, "0"); // connections opened before measuring
    }

    long[] before = latencies(redis, keys, Duration.ofSeconds(2), null);
    long heapBefore = usedHeapAfterGc();
    EtcdTopologySource.Statistics statsBefore = observer.statistics();
    int publishedBefore = published.get();
    long topologyCpuBefore = topologyThreadsCpuNanos();

    // 100 writes a second for 5 s, alternating the node between two addresses; sent without
    // waiting for the previous answer (at most 50 in flight), so etcd's latency does not slow them.
    AtomicBoolean flapping = new AtomicBoolean(true);
    AtomicLong lastRevision = new AtomicLong();
    AtomicInteger writes = new AtomicInteger();
    CompletableFuture<Void> flapper =
        CompletableFuture.runAsync(
            () -> {
              java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(50);
              long next = System.nanoTime();
              long end = next + TimeUnit.SECONDS.toNanos(5);
              try {
                while (System.nanoTime() < end && writes.get() < 500) {
                  if (!inFlight.tryAcquire(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("etcd stopped answering writes");
                  }
                  int write = writes.incrementAndGet();
                  int port = REDIS[write % 2].port();
                  writer
                      .getKVClient()
                      .put(bytes(root() + "nodes/" + FLAPPING), bytes(nodeJson(port, write)))
                      .whenComplete(
                          (response, error) -> {
                            if (response != null) {
                              lastRevision.accumulateAndGet(
                                  response.getHeader().getRevision(), Math::max);
                            }
                            inFlight.release();
                          });
                  next += TimeUnit.MILLISECONDS.toNanos(10);
                  long sleep = next - System.nanoTime();
                  if (sleep > 0) {
                    TimeUnit.NANOSECONDS.sleep(sleep); // pacing the writer, not synchronisation
                  }
                }
                if (!inFlight.tryAcquire(50, 30, TimeUnit.SECONDS)) {
                  throw new IllegalStateException("writes still unanswered after 30 s");
                }
              } catch (InterruptedException e) {
                throw new IllegalStateException("flapping interrupted", e);
              } finally {
                flapping.set(false);
              }
            });
    long flapStart = System.nanoTime();
    long[] during = latencies(redis, keys, Duration.ofSeconds(10), flapping);
    flapper.get(30, TimeUnit.SECONDS);
    double flapSeconds = (System.nanoTime() - flapStart) / 1e9;
    long last = lastRevision.get();
    Poll.until(
        WAIT,
        "the observer and the client to reach revision " + last,
        () -> observer.current().revision() >= last && client.topology().revision() >= last);
    long topologyCpu = topologyThreadsCpuNanos() - topologyCpuBefore;
    EtcdTopologySource.Statistics statsAfter = observer.statistics();
    long revisions = statsAfter.revisionsApplied() - statsBefore.revisionsApplied();
    long snapshots = statsAfter.snapshotsPublished() - statsBefore.snapshotsPublished();
    long heapAfter = usedHeapAfterGc();

    System.out.printf(
        "hostile: %d writes of node %s in %.1f s; observer applied %d revisions in %d snapshots"
            + " (listener saw %d); topology threads (observer + client) CPU %d ms; heap after GC"
            + " %.1f MB before, %.1f MB after%n",
        writes.get(),
        FLAPPING,
        flapSeconds,
        revisions,
        snapshots,
        published.get() - publishedBefore,
        topologyCpu / 1_000_000,
        heapBefore / 1e6,
        heapAfter / 1e6);
    System.out.printf(
        "hostile: GET/SET latency before flapping %s; during %s%n",
        describe(before), describe(during));

    assertThat(revisions).as("every write applied").isGreaterThanOrEqualTo(writes.get());
    assertThat(snapshots).as("at most one snapshot per revision").isLessThanOrEqualTo(revisions);
    // Generous: the heap must not grow with the number of snapshots built.
    assertThat(heapAfter - heapBefore).as("heap growth").isLessThan(128L << 20);
    // Generous: on an idle machine p99 stays well under a millisecond before and during.
    assertThat(percentile(during, 0.99))
        .as("p99 GET/SET during flapping, ns")
        .isLessThan(TimeUnit.MILLISECONDS.toNanos(250));
    assertThat(during.length).as("operations during flapping").isGreaterThan(100);

    // The final snapshot matches etcd: a fresh listing gives the same map.
    EtcdTopologySource fresh = FIXTURE.register(EtcdTopologySource.create(sourceOptions(CLUSTER)));
    TopologySnapshot etcdNow = fresh.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
    TopologySnapshot watched = observer.current();
    assertThat(watched.revision()).isEqualTo(etcdNow.revision());
    assertThat(watched.nodes()).isEqualTo(etcdNow.nodes());
    assertThat(watched.routes()).isEqualTo(etcdNow.routes());
    assertThat(client.topology().nodes().get(FLAPPING)).isEqualTo(etcdNow.nodes().get(FLAPPING));
    assertThat(etcdNow.nodes().get(FLAPPING).tags()).containsKey("v");
  }

  // ---- oversized values ---------------------------------------------------------------------

  @Test
  @Order(3)
  void should_report_values_of_several_mb_as_invalid_and_keep_serving() throws Exception {
    String cluster = "oversized";
    String root = "/jumpgate/" + cluster + "/";
    List<Op> puts = new ArrayList<>();
    for (int node = 0; node < 3; node++) {
      puts.add(
          Op.put(
              bytes(root + "nodes/n" + node),
              bytes(nodeJson(REDIS[node].port(), 0)),
              PutOption.DEFAULT));
    }
    for (int shard = 0; shard < 64; shard++) {
      String value = "{\"leader\":\"n" + shard % 3 + "\",\"epoch\":0}";
      puts.add(
          Op.put(
              bytes(root + String.format("shards/%04d", shard)), bytes(value), PutOption.DEFAULT));
    }
    puts.add(
        Op.put(
            bytes(root + "meta"),
            bytes("{\"format\":1,\"shards\":64,\"routing\":\"xxh64-jump\"}"),
            PutOption.DEFAULT));
    txn(puts);
    EtcdTopologySource source = FIXTURE.register(EtcdTopologySource.create(sourceOptions(cluster)));
    TopologySnapshot first = source.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
    JumpgateClient client = FIXTURE.register(JumpgateClient.create(clientOptions(cluster)));
    JumpgateCommands<String, String> redis = client.connect().sync();

    // When a shard, a node, a client registration and an unknown key get values of 3 to 8 MB
    String shardKey = root + "shards/0005";
    String nodeKey = root + "nodes/n1";
    Map<String, byte[]> big = new HashMap<>();
    big.put(shardKey, padded("{\"leader\":\"n2\",\"epoch\":9,\"pad\":\"", 3 << 20));
    big.put(nodeKey, padded("{\"host\":\"127.0.0.1\",\"port\":1,\"pad\":\"", 5 << 20));
    big.put(root + "clients/app-1", padded("{\"host\":\"app\",\"pad\":\"", 8 << 20));
    big.put(root + "unknown/x", padded("{\"pad\":\"", 4 << 20));
    long revision = 0;
    for (Map.Entry<String, byte[]> entry : big.entrySet()) {
      long put =
          writer
              .getKVClient()
              .put(bytes(entry.getKey()), ByteSequence.from(entry.getValue()))
              .get(30, TimeUnit.SECONDS)
              .getHeader()
              .getRevision();
      if (entry.getKey().equals(shardKey) || entry.getKey().equals(nodeKey)) {
        // the source watches the map's key range only: clients/ and unknown/ never reach it
        revision = Math.max(revision, put);
      }
    }
    long written = revision;
    Poll.until(
        WAIT,
        "the source to apply revision " + written,
        () -> source.lastAppliedRevision() >= written);
    Poll.until(WAIT, "both entries reported", () -> source.current().invalidEntries().size() == 2);

    // Then the shard and node entries are reported, the rest ignored, and the map is unchanged
    TopologySnapshot now = source.current();
    assertThat(now.invalidEntries())
        .extracting(InvalidEntry::key, InvalidEntry::reason)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                nodeKey,
                "the value is "
                    + big.get(nodeKey).length
                    + " bytes, more than the 1048576 allowed"),
            org.assertj.core.groups.Tuple.tuple(
                shardKey,
                "the value is "
                    + big.get(shardKey).length
                    + " bytes, more than the 1048576 allowed"));
    assertThat(now.routes()).isEqualTo(first.routes());
    assertThat(now.nodes()).isEqualTo(first.nodes());
    assertThat(source.status().connected()).isTrue();
    // And the client, which got the same values, serves every shard
    Poll.until(
        WAIT,
        "the client to apply revision " + written,
        () -> client.topology().invalidEntries().size() == 2);
    for (int i = 0; i < 200; i++) {
      redis.set("o:" + i, "v" + i);
      assertThat(redis.get("o:" + i)).isEqualTo("v" + i);
    }
    // And a fix of the shard is taken at once
    long fixed =
        writer
            .getKVClient()
            .put(bytes(shardKey), bytes("{\"leader\":\"n2\",\"epoch\":1}"))
            .get(30, TimeUnit.SECONDS)
            .getHeader()
            .getRevision();
    Poll.until(WAIT, "the fix at revision " + fixed, () -> source.current().revision() >= fixed);
    assertThat(source.current().route(5).leader().id()).isEqualTo("n2");
    assertThat(source.current().invalidEntries())
        .extracting(InvalidEntry::key)
        .containsExactly(nodeKey);
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** Runs SET then GET over the keys until {@code until} turns false (or {@code max} passed). */
  private static long[] latencies(
      JumpgateCommands<String, String> redis,
      List<String> keys,
      Duration max,
      AtomicBoolean until) {
    long[] samples = new long[1 << 20];
    int count = 0;
    long end = System.nanoTime() + max.toNanos();
    for (int i = 0;
        System.nanoTime() < end && (until == null || until.get()) && count < samples.length - 1;
        i++) {
      String key = keys.get(i % keys.size());
      long start = System.nanoTime();
      redis.set(key, Integer.toString(i));
      samples[count++] = System.nanoTime() - start;
      start = System.nanoTime();
      String value = redis.get(key);
      samples[count++] = System.nanoTime() - start;
      if (!Integer.toString(i).equals(value)) {
        throw new AssertionError(key + " read " + value + " after writing " + i);
      }
    }
    long[] result = Arrays.copyOf(samples, count);
    Arrays.sort(result);
    return result;
  }

  private static long percentile(long[] sorted, double quantile) {
    return sorted.length == 0
        ? 0
        : sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))];
  }

  private static String describe(long[] sorted) {
    return String.format(
        "%d ops, p50 %.0f us, p99 %.0f us, max %.1f ms",
        sorted.length,
        percentile(sorted, 0.5) / 1e3,
        percentile(sorted, 0.99) / 1e3,
        sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
  }

  /** CPU time of every Jumpgate topology thread of this JVM. */
  private static long topologyThreadsCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("jumpgate-topology-")) {
        total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return total;
  }

  /** Heap in use after a full collection (best effort: System.gc() twice). */
  private static long usedHeapAfterGc() {
    for (int i = 0; i < 2; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static EtcdTopologyOptions sourceOptions(String cluster) {
    return EtcdTopologyOptions.builder()
        .endpoints(etcd.endpointList())
        .cluster(cluster)
        .startTimeout(Duration.ofSeconds(60))
        .requestTimeout(Duration.ofSeconds(30))
        .build();
  }

  private static JumpgateOptions clientOptions(String cluster) {
    return JumpgateOptions.builder()
        .etcd(sourceOptions(cluster))
        .registration(false)
        .startTimeout(Duration.ofSeconds(60))
        .commandTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static String root() {
    return "/jumpgate/" + CLUSTER + "/";
  }

  private static String nodeJson(int port, int version) {
    return "{\"host\":\"127.0.0.1\",\"port\":" + port + ",\"tags\":{\"v\":\"" + version + "\"}}";
  }

  private static String shardJson(int shard) {
    return "{\"leader\":\"n"
        + shard % NODES
        + "\",\"replicas\":[\"n"
        + (shard + 1) % NODES
        + "\"],\"epoch\":0,\"state\":\"active\"}";
  }

  private static byte[] padded(String head, int size) {
    byte[] value = new byte[size];
    Arrays.fill(value, (byte) 'x');
    byte[] start = head.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(start, 0, value, 0, start.length);
    value[size - 2] = '"';
    value[size - 1] = '}';
    return value;
  }

  private static Op put(String relativeKey, String value) {
    return Op.put(bytes(root() + relativeKey), bytes(value), PutOption.DEFAULT);
  }

  private static void txn(List<Op> operations) throws Exception {
    KV kv = writer.getKVClient();
    kv.txn().Then(operations.toArray(Op[]::new)).commit().get(60, TimeUnit.SECONDS);
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
