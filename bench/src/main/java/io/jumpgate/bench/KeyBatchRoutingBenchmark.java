package io.jumpgate.bench;

import io.jumpgate.routing.Xxh64JumpRouter;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The shards of one request's 100 keys, as a fan-out computes them: each key routed in turn ({@link
 * #oneByOne}) against every key's length read in a pass of its own before the keys are hashed
 * ({@link #lengthsFirst}), the two loops of the driver's {@code KeyRouter.shardsOf} for {@code
 * byte[]} keys (written out here on the public {@link Xxh64JumpRouter}: the bench may not use the
 * driver's internal package; the end-to-end bench runs the driver's own).
 *
 * <p>{@code keyCount} keys of {@code keyLength} bytes are made in index order (so they lie in the
 * heap in that order, as an application's keys loaded over time roughly do); each invocation takes
 * the next of 4,096 batches of 100 keys drawn at random among them. With 10,000 keys every key
 * stays in the core's cache; with 100,000 (the end-to-end bench's key space) and 1,000,000 most of
 * a batch's keys are not in the core's cache when it is routed, which is the case of a real
 * request.
 *
 * <p>Run (after {@code mvn -B -ntp -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar KeyBatchRoutingBenchmark -f 1 -wi 3 -i 5
 * </pre>
 *
 * <p>Time per batch of 100 keys. Single-threaded; allocates nothing per invocation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class KeyBatchRoutingBenchmark {

  private static final int BATCH = 100;
  private static final int BATCHES = 4096;

  @Param({"10000", "100000", "1000000"})
  public int keyCount;

  @Param({"16"})
  public int keyLength;

  private Xxh64JumpRouter router;
  private byte[][][] batches;
  private final int[] shards = new int[BATCH];
  private int next;

  @Setup
  public void setUp() {
    router = Xxh64JumpRouter.forShards(1024);
    byte[][] keys = new byte[keyCount][];
    SplittableRandom random = new SplittableRandom(14);
    for (int index = 0; index < keyCount; index++) {
      byte[] key = new byte[keyLength];
      for (int position = 0; position < keyLength; position++) {
        key[position] = (byte) ('a' + random.nextInt(26));
      }
      keys[index] = key;
    }
    batches = new byte[BATCHES][BATCH][];
    for (int batch = 0; batch < BATCHES; batch++) {
      for (int position = 0; position < BATCH; position++) {
        batches[batch][position] = keys[random.nextInt(keyCount)];
      }
    }
  }

  /** Each key's shard in turn: the fan-out's routing before issue 14's length pass. */
  @Benchmark
  public int[] oneByOne() {
    byte[][] batch = batches[next++ & (BATCHES - 1)];
    for (int index = 0; index < BATCH; index++) {
      shards[index] = router.shardOf(batch[index]);
    }
    return shards;
  }

  /**
   * Every key's length first, stored where its shard will go (so that the compiler keeps the
   * reads), then each key's shard: {@code KeyRouter.shardsOf}.
   */
  @Benchmark
  public int[] lengthsFirst() {
    byte[][] batch = batches[next++ & (BATCHES - 1)];
    for (int index = 0; index < BATCH; index++) {
      shards[index] = batch[index].length;
    }
    for (int index = 0; index < BATCH; index++) {
      shards[index] = router.shardOf(batch[index]);
    }
    return shards;
  }
}
