package io.jumpgate.bench;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Client cost of a fan-out (MGET of 10 and 100 keys, MSET of 10) through the driver next to the
 * same request on raw Lettuce connections, one per node, with the keys grouped per node by hand.
 *
 * <p>Three redis-servers started in {@code @Setup} by the IT fixture; the driver's map is a {@link
 * InMemoryTopologySource#roundRobin} (1024 shards, shard {@code s} on node {@code s % 3}, no etcd).
 * Keys are {@code byte[]} ({@code ByteArrayCodec} on both sides, as in the end-to-end bench), drawn
 * from 100,000 keys that hold 100-byte values; each invocation sends one request of distinct random
 * keys (the next of 4,096 drawn in setup) and waits for its answer. Per request shape:
 *
 * <ul>
 *   <li>{@code jumpgate*}: the driver's {@code mget(keys)} / {@code mset(map)}: routing, grouping,
 *       one command per node, answers merged in request order.
 *   <li>{@code direct*}: what a user who groups by hand does at call time: the shard of each key
 *       with the same routing function, its node from the same map, one Lettuce MGET/MSET per node,
 *       MGET's answers put back in request order ({@code List<KeyValue>}, as the driver answers).
 *   <li>{@code pregrouped*}: the end-to-end bench's {@code direct} baseline: keys (and MSET's maps)
 *       grouped per node before the timed part, one command per node, no reassembly.
 * </ul>
 *
 * <p>Run (after {@code mvn -B -ntp -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar FanOutBenchmark -f 1 -wi 3 -i 5 -prof gc \
 *     -prof io.jumpgate.bench.ProcessCpuProfiler
 * </pre>
 *
 * <p>Read {@code gc.alloc.rate.norm} (bytes per request, every thread) and {@code cpu.per.op}
 * (client CPU per request, every thread of the JVM); the time per operation is a loopback round
 * trip at one request in flight.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FanOutBenchmark {

  private static final int NODES = 3;
  private static final int SHARDS = 1024;
  private static final int KEY_SPACE = 100_000;
  private static final int REQUESTS = 4096;

  private ProcessFixture fixture;
  private AutoCloseable scope;
  private ClientResources resources;
  private JumpgateClient client;
  private JumpgateAsyncCommands<byte[], byte[]> jumpgate;
  private RedisClient lettuceClient;
  private final List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
  private RedisAsyncCommands<byte[], byte[]>[] nodes;
  private final Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
  private int[] nodeOfShard;

  private byte[][][] mget10;
  private byte[][][] mget100;
  private Map<byte[], byte[]>[] mset10;
  private Grouped[] mget10Grouped;
  private Grouped[] mget100Grouped;
  private Grouped[] mset10Grouped;
  private int next;

  /** A request's keys (and MSET's maps) split per node before the timed part. */
  private record Grouped(int[] nodeIndexes, byte[][][] keys, Map<byte[], byte[]>[] maps) {}

  @Setup(Level.Trial)
  @SuppressWarnings("unchecked")
  public void start() throws Exception {
    fixture = new ProcessFixture();
    scope = fixture.openScope("fan-out-benchmark");
    List<Node> mapNodes = new ArrayList<>();
    resources = DefaultClientResources.create();
    lettuceClient = RedisClient.create(resources);
    nodes = new RedisAsyncCommands[NODES];
    for (int index = 0; index < NODES; index++) {
      RedisProcess redis = fixture.redis();
      mapNodes.add(Node.of("node-" + index, "127.0.0.1", redis.port()));
      StatefulRedisConnection<byte[], byte[]> connection =
          lettuceClient.connect(
              ByteArrayCodec.INSTANCE, RedisURI.create("127.0.0.1", redis.port()));
      connections.add(connection);
      nodes[index] = connection.async();
    }
    nodeOfShard = new int[SHARDS];
    for (int shard = 0; shard < SHARDS; shard++) {
      nodeOfShard[shard] = shard % NODES;
    }
    client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologySource(InMemoryTopologySource.roundRobin(SHARDS, mapNodes))
                .clientResources(resources)
                .build());
    jumpgate = client.connect(ByteArrayCodec.INSTANCE).async();

    byte[][] keySpace = new byte[KEY_SPACE][];
    byte[] value = "v".repeat(100).getBytes(StandardCharsets.US_ASCII);
    for (int index = 0; index < KEY_SPACE; index++) {
      keySpace[index] = ("fanout:" + index).getBytes(StandardCharsets.US_ASCII);
    }
    for (int from = 0; from < KEY_SPACE; from += 1000) {
      Map<byte[], byte[]> batch = new LinkedHashMap<>();
      for (int index = from; index < from + 1000; index++) {
        batch.put(keySpace[index], value);
      }
      directMset(batch);
    }
    SplittableRandom random = new SplittableRandom(14);
    mget10 = draw(keySpace, 10, random);
    mget100 = draw(keySpace, 100, random);
    byte[][][] msetKeys = draw(keySpace, 10, random);
    mset10 = new Map[REQUESTS];
    for (int request = 0; request < REQUESTS; request++) {
      Map<byte[], byte[]> map = new LinkedHashMap<>();
      for (byte[] key : msetKeys[request]) {
        map.put(key, value);
      }
      mset10[request] = map;
    }
    mget10Grouped = new Grouped[REQUESTS];
    mget100Grouped = new Grouped[REQUESTS];
    mset10Grouped = new Grouped[REQUESTS];
    for (int request = 0; request < REQUESTS; request++) {
      mget10Grouped[request] = group(mget10[request], null);
      mget100Grouped[request] = group(mget100[request], null);
      mset10Grouped[request] = group(msetKeys[request], value);
    }
    check();
  }

  /** The driver and the hand-grouped path answer the same values in the same order. */
  private void check() {
    for (int request = 0; request < 8; request++) {
      List<KeyValue<byte[], byte[]>> driver =
          jumpgate.mget(mget100[request]).toCompletableFuture().join();
      List<KeyValue<byte[], byte[]>> byHand = directMget(mget100[request]);
      for (int index = 0; index < 100; index++) {
        if (driver.get(index).getKey() != mget100[request][index]
            || !Arrays.equals(driver.get(index).getValue(), byHand.get(index).getValue())
            || byHand.get(index).getKey() != mget100[request][index]) {
          throw new IllegalStateException("MGET answers differ at key " + index);
        }
      }
    }
  }

  private static byte[][][] draw(byte[][] keySpace, int size, SplittableRandom random) {
    byte[][][] requests = new byte[REQUESTS][size][];
    for (int request = 0; request < REQUESTS; request++) {
      int[] picked = random.ints(0, KEY_SPACE).distinct().limit(size).toArray();
      for (int index = 0; index < size; index++) {
        requests[request][index] = keySpace[picked[index]];
      }
    }
    return requests;
  }

  @SuppressWarnings("unchecked")
  private Grouped group(byte[][] keys, byte[] value) {
    List<List<byte[]>> perNode = new ArrayList<>();
    for (int node = 0; node < NODES; node++) {
      perNode.add(new ArrayList<>());
    }
    for (byte[] key : keys) {
      perNode.get(nodeOfShard[router.shardOf(key)]).add(key);
    }
    int used = (int) perNode.stream().filter(list -> !list.isEmpty()).count();
    int[] nodeIndexes = new int[used];
    byte[][][] grouped = new byte[used][][];
    Map<byte[], byte[]>[] maps = new Map[used];
    int slot = 0;
    for (int node = 0; node < NODES; node++) {
      List<byte[]> list = perNode.get(node);
      if (list.isEmpty()) {
        continue;
      }
      nodeIndexes[slot] = node;
      grouped[slot] = list.toArray(new byte[0][]);
      if (value != null) {
        Map<byte[], byte[]> map = new LinkedHashMap<>();
        for (byte[] key : list) {
          map.put(key, value);
        }
        maps[slot] = map;
      }
      slot++;
    }
    return new Grouped(nodeIndexes, grouped, maps);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try {
      client.close();
      connections.forEach(StatefulRedisConnection::close);
      lettuceClient.shutdown();
      resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    } finally {
      scope.close();
    }
  }

  private int nextRequest() {
    int request = next;
    next = (request + 1) & (REQUESTS - 1);
    return request;
  }

  /**
   * MGET grouped by hand at call time: each key's node in one pass, one MGET per node, the answers
   * put back in request order.
   */
  @SuppressWarnings("unchecked")
  private List<KeyValue<byte[], byte[]>> directMget(byte[][] keys) {
    int count = keys.length;
    int[] nodeOfKey = new int[count];
    int[] sizes = new int[NODES];
    for (int index = 0; index < count; index++) {
      int node = nodeOfShard[router.shardOf(keys[index])];
      nodeOfKey[index] = node;
      sizes[node]++;
    }
    byte[][][] perNode = new byte[NODES][][];
    int[][] positions = new int[NODES][];
    for (int node = 0; node < NODES; node++) {
      perNode[node] = new byte[sizes[node]][];
      positions[node] = new int[sizes[node]];
      sizes[node] = 0;
    }
    for (int index = 0; index < count; index++) {
      int node = nodeOfKey[index];
      int slot = sizes[node]++;
      perNode[node][slot] = keys[index];
      positions[node][slot] = index;
    }
    RedisFuture<List<KeyValue<byte[], byte[]>>>[] parts = new RedisFuture[NODES];
    for (int node = 0; node < NODES; node++) {
      if (sizes[node] > 0) {
        parts[node] = nodes[node].mget(perNode[node]);
      }
    }
    KeyValue<byte[], byte[]>[] answers = new KeyValue[count];
    for (int node = 0; node < NODES; node++) {
      if (parts[node] != null) {
        List<KeyValue<byte[], byte[]>> values = parts[node].toCompletableFuture().join();
        int[] slots = positions[node];
        for (int slot = 0; slot < slots.length; slot++) {
          answers[slots[slot]] = values.get(slot);
        }
      }
    }
    return Arrays.asList(answers);
  }

  /** MSET grouped by hand at call time: one map per node, one MSET per node. */
  @SuppressWarnings("unchecked")
  private String directMset(Map<byte[], byte[]> map) {
    Map<byte[], byte[]>[] perNode = new Map[NODES];
    for (Map.Entry<byte[], byte[]> entry : map.entrySet()) {
      int node = nodeOfShard[router.shardOf(entry.getKey())];
      if (perNode[node] == null) {
        perNode[node] = new HashMap<>();
      }
      perNode[node].put(entry.getKey(), entry.getValue());
    }
    RedisFuture<String>[] parts = new RedisFuture[NODES];
    for (int node = 0; node < NODES; node++) {
      if (perNode[node] != null) {
        parts[node] = nodes[node].mset(perNode[node]);
      }
    }
    for (RedisFuture<String> part : parts) {
      if (part != null) {
        part.toCompletableFuture().join();
      }
    }
    return "OK";
  }

  private Object pregroupedMget(Grouped grouped) {
    int[] nodeIndexes = grouped.nodeIndexes();
    CompletableFuture<?>[] parts = new CompletableFuture<?>[nodeIndexes.length];
    for (int index = 0; index < nodeIndexes.length; index++) {
      parts[index] = nodes[nodeIndexes[index]].mget(grouped.keys()[index]).toCompletableFuture();
    }
    return CompletableFuture.allOf(parts).join();
  }

  private Object pregroupedMset(Grouped grouped) {
    int[] nodeIndexes = grouped.nodeIndexes();
    CompletableFuture<?>[] parts = new CompletableFuture<?>[nodeIndexes.length];
    for (int index = 0; index < nodeIndexes.length; index++) {
      parts[index] = nodes[nodeIndexes[index]].mset(grouped.maps()[index]).toCompletableFuture();
    }
    return CompletableFuture.allOf(parts).join();
  }

  @Benchmark
  public List<KeyValue<byte[], byte[]>> jumpgateMget10() {
    return jumpgate.mget(mget10[nextRequest()]).toCompletableFuture().join();
  }

  @Benchmark
  public List<KeyValue<byte[], byte[]>> directMget10() {
    return directMget(mget10[nextRequest()]);
  }

  @Benchmark
  public Object pregroupedMget10() {
    return pregroupedMget(mget10Grouped[nextRequest()]);
  }

  @Benchmark
  public List<KeyValue<byte[], byte[]>> jumpgateMget100() {
    return jumpgate.mget(mget100[nextRequest()]).toCompletableFuture().join();
  }

  @Benchmark
  public List<KeyValue<byte[], byte[]>> directMget100() {
    return directMget(mget100[nextRequest()]);
  }

  @Benchmark
  public Object pregroupedMget100() {
    return pregroupedMget(mget100Grouped[nextRequest()]);
  }

  @Benchmark
  public String jumpgateMset10() {
    return jumpgate.mset(mset10[nextRequest()]).toCompletableFuture().join();
  }

  @Benchmark
  public String directMset10() {
    return directMset(mset10[nextRequest()]);
  }

  @Benchmark
  public Object pregroupedMset10() {
    return pregroupedMset(mset10Grouped[nextRequest()]);
  }
}
