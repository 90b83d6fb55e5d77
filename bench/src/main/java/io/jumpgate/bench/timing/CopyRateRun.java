package io.jumpgate.bench.timing;

import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.CopyMethod;
import io.jumpgate.migration.CopyProgress;
import io.jumpgate.migration.DrainResult;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.migration.ShardCopier;
import io.jumpgate.migration.ShardCopierOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Copy speed of {@link ShardCopier}: MIGRATE against DUMP/RESTORE, the drain barrier, and the copy
 * under a write load.
 *
 * <pre>{@code
 * mvn -o -B -q -pl bench -am package -DskipTests -Dinvoker.skip
 * java -cp bench/target/benchmarks.jar io.jumpgate.bench.timing.CopyRateRun [--keys 1000000] [--repeat 3]
 * }</pre>
 *
 * <p>One source redis-server holds {@code --keys} keys (default 1,000,000) of 100-byte string
 * values, one in ten with a TTL of an hour; a quarter of the 1024 shards (every fourth, about a
 * quarter of the keys) are copied to an idle target, flushed before each run. Each configuration
 * runs {@code --repeat} times (default 3) and prints every run's keys/s and MB/s (bytes the target
 * received, from its {@code total_net_input_bytes}), then the median and the spread:
 *
 * <ul>
 *   <li>MIGRATE with batches of 100, 1,000 and 5,000 keys, pipeline depth 4;
 *   <li>DUMP/RESTORE with batches of 100 and 1,000 keys, pipeline depth 4;
 *   <li>the drain barrier: 200 drains with nothing pending, then 20 drains with 1,000 keys changed
 *       just before (p50, p99, max);
 *   <li>MIGRATE and DUMP/RESTORE (batch 1,000) while a load of about 20,000 SETs/s (batches of 200
 *       pipelined on one connection) runs on the source against keys of every shard, with the
 *       latency of those batches alone and during the copies.
 * </ul>
 *
 * Not thread-safe: one run per JVM. Servers are local processes started by the IT fixture, killed
 * at the end.
 */
public final class CopyRateRun {

  static final int SHARDS = 1024;
  static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);
  static final int VALUE_BYTES = 100;
  static final int LOAD_WRITES_PER_SECOND = 20_000;

  private CopyRateRun() {}

  public static void main(String[] args) throws Exception {
    int keys = 1_000_000;
    int repeat = 3;
    for (int index = 0; index < args.length; index++) {
      switch (args[index]) {
        case "--keys" -> keys = Integer.parseInt(args[++index]);
        case "--repeat" -> repeat = Integer.parseInt(args[++index]);
        default -> {
          System.err.println("usage: CopyRateRun [--keys N] [--repeat R]; unknown: " + args[index]);
          System.exit(2);
        }
      }
    }
    BitSet moved = new BitSet(SHARDS);
    for (int shard = 0; shard < SHARDS; shard += 4) {
      moved.set(shard);
    }
    ProcessFixture fixture = new ProcessFixture();
    try (AutoCloseable scope = fixture.openScope("copy-rate")) {
      RedisProcess source = fixture.redis();
      RedisProcess target = fixture.redis();
      RedisClient client = RedisClient.create();
      try (StatefulRedisConnection<String, String> sourceConnection = client.connect(uri(source));
          StatefulRedisConnection<String, String> targetConnection = client.connect(uri(target))) {
        long loadStart = System.nanoTime();
        load(sourceConnection.async(), keys);
        System.out.printf(
            Locale.ROOT,
            "loaded %,d keys of %d bytes in %.1f s; moving %d of %d shards (%,d keys)%n",
            keys,
            VALUE_BYTES,
            (System.nanoTime() - loadStart) / 1e9,
            moved.cardinality(),
            SHARDS,
            countMoved(keys, moved));
        ServerAddress from = ServerAddress.of("127.0.0.1", source.port());
        ServerAddress to = ServerAddress.of("127.0.0.1", target.port());
        for (CopyMethod method : CopyMethod.values()) {
          int[] batches =
              method == CopyMethod.MIGRATE ? new int[] {100, 1000, 5000} : new int[] {100, 1000};
          for (int batch : batches) {
            ShardCopierOptions options =
                ShardCopierOptions.builder().copyMethod(method).batchSize(batch).build();
            double[] rates = new double[repeat];
            double[] megabytes = new double[repeat];
            for (int run = 0; run < repeat; run++) {
              targetConnection.sync().flushall();
              try (ShardCopier copier = ShardCopier.create(from, to, SHARDS, moved, options)) {
                copier.prepare();
                long start = System.nanoTime();
                CopyProgress progress = copier.copy();
                double seconds = (System.nanoTime() - start) / 1e9;
                rates[run] = progress.keysCopied() / seconds;
                megabytes[run] = progress.bytesCopied() / 1e6 / seconds;
              }
            }
            report(method + " batch " + batch, rates, megabytes);
          }
        }
        measureDrain(sourceConnection.async(), targetConnection, from, to, moved, keys);
        measureUnderLoad(sourceConnection.async(), targetConnection, from, to, moved, keys, repeat);
      } finally {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(5));
      }
    }
  }

  private static RedisURI uri(RedisProcess server) {
    return RedisURI.builder()
        .withHost("127.0.0.1")
        .withPort(server.port())
        .withTimeout(Duration.ofSeconds(60))
        .build();
  }

  static String key(int index) {
    return "key:" + index;
  }

  private static long countMoved(int keys, BitSet moved) {
    long count = 0;
    for (int index = 0; index < keys; index++) {
      if (moved.get(ROUTER.shardOfUtf8(key(index)))) {
        count++;
      }
    }
    return count;
  }

  private static void load(RedisAsyncCommands<String, String> async, int keys) {
    SetArgs withTtl = SetArgs.Builder.px(3_600_000);
    List<RedisFuture<?>> futures = new ArrayList<>();
    for (int index = 0; index < keys; index++) {
      futures.add(
          index % 10 == 0
              ? async.set(key(index), value(index), withTtl)
              : async.set(key(index), value(index)));
      if (futures.size() == 5_000) {
        await(futures);
      }
    }
    await(futures);
  }

  /** Random letters, not compressible: DUMP payloads and MIGRATE carry the whole 100 bytes. */
  private static final String NOISE = noise();

  private static String noise() {
    StringBuilder noise = new StringBuilder();
    java.util.Random random = new java.util.Random(42);
    for (int index = 0; index < 65_536; index++) {
      noise.append((char) ('a' + random.nextInt(26)));
    }
    return noise.toString();
  }

  static String value(int index) {
    int start = (int) ((index * 2654435761L) & 0xffff) % (NOISE.length() - VALUE_BYTES);
    return NOISE.substring(start, start + VALUE_BYTES);
  }

  private static void await(List<RedisFuture<?>> futures) {
    if (!LettuceFutures.awaitAll(60, TimeUnit.SECONDS, futures.toArray(RedisFuture[]::new))) {
      throw new IllegalStateException("writes did not answer within 60 s");
    }
    futures.clear();
  }

  private static void measureDrain(
      RedisAsyncCommands<String, String> async,
      StatefulRedisConnection<String, String> targetConnection,
      ServerAddress from,
      ServerAddress to,
      BitSet moved,
      int keys)
      throws InterruptedException {
    targetConnection.sync().flushall();
    List<String> movedKeys = new ArrayList<>();
    for (int index = 0; movedKeys.size() < 1000 && index < keys; index++) {
      if (moved.get(ROUTER.shardOfUtf8(key(index)))) {
        movedKeys.add(key(index));
      }
    }
    try (ShardCopier copier =
        ShardCopier.create(from, to, SHARDS, moved, ShardCopierOptions.defaults())) {
      copier.prepare();
      copier.copy();
      double[] idle = new double[200];
      for (int run = 0; run < idle.length; run++) {
        idle[run] = copier.drain().totalTime().toNanos() / 1e6;
      }
      double[] pending = new double[20];
      double[] barrier = new double[20];
      for (int run = 0; run < pending.length; run++) {
        List<RedisFuture<?>> futures = new ArrayList<>();
        for (String key : movedKeys) {
          futures.add(async.set(key, value(run * 7919 + futures.size())));
        }
        await(futures);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (copier.progress().keysPending() < movedKeys.size() && System.nanoTime() < deadline) {
          Thread.onSpinWait(); // the notifications of the writes are on their way
        }
        DrainResult result = copier.drain();
        pending[run] = result.totalTime().toNanos() / 1e6;
        barrier[run] = result.barrierTime().toNanos() / 1e6;
        if (result.keysCopied() < movedKeys.size()) {
          throw new IllegalStateException(
              "drain copied " + result.keysCopied() + " keys, " + movedKeys.size() + " changed");
        }
      }
      System.out.println("drain, nothing pending (ms): " + percentiles(idle));
      System.out.println(
          "drain, 1,000 keys pending (ms): "
              + percentiles(pending)
              + "; of which the barrier: "
              + percentiles(barrier));
    }
  }

  private static void measureUnderLoad(
      RedisAsyncCommands<String, String> async,
      StatefulRedisConnection<String, String> targetConnection,
      ServerAddress from,
      ServerAddress to,
      BitSet moved,
      int keys,
      int repeat)
      throws InterruptedException {
    double[] idleLatencies = loadLatencies(async, keys, null);
    System.out.println(
        "  load alone, latency of a pipelined batch of 200 SETs (ms): "
            + percentiles(idleLatencies));
    for (CopyMethod method : CopyMethod.values()) {
      double[] rates = new double[repeat];
      double[] megabytes = new double[repeat];
      double[] loads = new double[repeat];
      List<Double> latencies = new ArrayList<>();
      for (int run = 0; run < repeat; run++) {
        targetConnection.sync().flushall();
        ShardCopierOptions options =
            ShardCopierOptions.builder()
                .copyMethod(method)
                .catchUpTimeout(Duration.ofSeconds(2))
                .build();
        try (ShardCopier copier = ShardCopier.create(from, to, SHARDS, moved, options)) {
          copier.prepare();
          double[] result = new double[3];
          double[] during =
              loadLatencies(
                  async,
                  keys,
                  () -> {
                    long start = System.nanoTime();
                    CopyProgress progress = copier.copy();
                    double seconds = (System.nanoTime() - start) / 1e9;
                    result[0] = progress.keysCopied() / seconds;
                    result[1] = progress.bytesCopied() / 1e6 / seconds;
                    result[2] = seconds;
                  });
          rates[run] = result[0];
          megabytes[run] = result[1];
          loads[run] = during.length * 200 / result[2];
          for (double latency : during) {
            latencies.add(latency);
          }
          copier.drain();
        }
      }
      report(method + " batch 1000 under load", rates, megabytes);
      System.out.println("  load during those copies (writes/s): " + spread(loads));
      System.out.println(
          "  latency of a pipelined batch of 200 SETs during the copies (ms): "
              + percentiles(latencies.stream().mapToDouble(Double::doubleValue).toArray()));
    }
  }

  /**
   * Runs the load of about {@link #LOAD_WRITES_PER_SECOND} SETs a second (200 every 10 ms,
   * pipelined) for 2 s, or, with a {@code copy}, from 500 ms before it starts until it ends;
   * returns the latency in ms of each batch of 200 sent while the copy ran (or all of them).
   */
  private static double[] loadLatencies(
      RedisAsyncCommands<String, String> async, int keys, Runnable copy)
      throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean recording = new AtomicBoolean(copy == null);
    List<Double> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread load =
        new Thread(() -> writeLoad(async, keys, stop, recording, latencies), "copy-rate-load");
    load.start();
    try {
      if (copy == null) {
        Thread.sleep(2_000);
      } else {
        Thread.sleep(500); // the load reaches its pace before the copy starts
        recording.set(true);
        copy.run();
        recording.set(false);
      }
    } finally {
      stop.set(true);
      load.join(10_000);
    }
    synchronized (latencies) {
      return latencies.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }

  private static void writeLoad(
      RedisAsyncCommands<String, String> async,
      int keys,
      AtomicBoolean stop,
      AtomicBoolean recording,
      List<Double> latencies) {
    long start = System.nanoTime();
    long sent = 0;
    List<RedisFuture<?>> futures = new ArrayList<>();
    while (!stop.get()) {
      long due = start + sent * 1_000_000_000L / LOAD_WRITES_PER_SECOND;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      }
      long batchStart = System.nanoTime();
      for (int index = 0; index < 200; index++) {
        int keyIndex = ThreadLocalRandom.current().nextInt(keys);
        futures.add(async.set(key(keyIndex), value(keyIndex + 1)));
      }
      await(futures);
      if (recording.get()) {
        latencies.add((System.nanoTime() - batchStart) / 1e6);
      }
      sent += 200;
    }
  }

  private static void report(String name, double[] rates, double[] megabytes) {
    System.out.printf(
        Locale.ROOT, "%-32s keys/s %s   MB/s %s%n", name, spread(rates), spread(megabytes));
  }

  private static String spread(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    StringBuilder runs = new StringBuilder();
    for (double value : values) {
      runs.append(runs.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%,.0f", value));
    }
    return String.format(
        Locale.ROOT,
        "median %,.0f (min %,.0f max %,.0f; runs %s)",
        sorted[sorted.length / 2],
        sorted[0],
        sorted[sorted.length - 1],
        runs);
  }

  private static String percentiles(double[] millis) {
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    return String.format(
        Locale.ROOT,
        "p50 %.2f, p99 %.2f, max %.2f (n=%d)",
        sorted[(int) (sorted.length * 0.5)],
        sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)],
        sorted[sorted.length - 1],
        sorted.length);
  }
}
