package io.jumpgate.bench;

import com.google.common.hash.Hashing;
import io.jumpgate.routing.JumpHash;
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
 * The jump step alone into {@code buckets} (1024), on {@code keys} (16384) pre-computed random
 * 64-bit hashes cycled by an index: the contract's loop ({@link JumpVariants#textbook}), the
 * routing module's {@link JumpHash#bucket}, Guava's {@code Hashing.consistentHash} (the same
 * algorithm with a different floating-point grouping, so it differs for rare keys) and the exact
 * variants of {@link JumpVariants}. With {@code -p keys=1024} the branch predictor learns part of
 * the loop exits; see {@link RoutingBenchmark}.
 *
 * <p>The {@code *Chained} methods make each key's index depend on the previous bucket, so that one
 * call cannot overlap the next: they measure latency rather than throughput.
 *
 * <p>Run (after {@code mvn -B -ntp -pl bench package}):
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar JumpBenchmark -prof gc -f 3 -wi 5 -w 1s -i 5 -r 1s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(3)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class JumpBenchmark {

  @Param({"1024"})
  public int buckets;

  /** How many distinct hashes are cycled; a power of two. */
  @Param({"16384"})
  public int keys;

  long[] hashes;
  private int mask;
  private int index;
  private int last;

  @Setup
  public void setUp() {
    if (Integer.bitCount(keys) != 1) {
      throw new IllegalArgumentException("keys must be a power of two, was " + keys);
    }
    SplittableRandom random = new SplittableRandom(42);
    hashes = new long[keys];
    mask = keys - 1;
    for (int i = 0; i < keys; i++) {
      hashes[i] = random.nextLong();
    }
  }

  private long next() {
    return hashes[index++ & mask];
  }

  private long nextChained() {
    return hashes[(index++ + last) & mask];
  }

  @Benchmark
  public int textbook() {
    return JumpVariants.textbook(next(), buckets);
  }

  @Benchmark
  public int routingJumpHash() {
    return JumpHash.bucket(next(), buckets);
  }

  @Benchmark
  public int guavaConsistentHash() {
    return Hashing.consistentHash(next(), buckets);
  }

  @Benchmark
  public int textbookBits() {
    return JumpVariants.textbookBits(next(), buckets);
  }

  @Benchmark
  public int fmaFloor() {
    return JumpVariants.fmaFloor(next(), buckets);
  }

  @Benchmark
  public int fmaFloorBits() {
    return JumpVariants.fmaFloorBits(next(), buckets);
  }

  @Benchmark
  public int fmaFloorBitsLag1() {
    return JumpVariants.fmaFloorBitsLag1(next(), buckets);
  }

  @Benchmark
  public int fmaFloorBitsLag2() {
    return JumpVariants.fmaFloorBitsLag2(next(), buckets);
  }

  @Benchmark
  public int fmaFloorBitsLag3() {
    return JumpVariants.fmaFloorBitsLag3(next(), buckets);
  }

  @Benchmark
  public int fmaFloorBitsLag4() {
    return JumpVariants.fmaFloorBitsLag4(next(), buckets);
  }

  @Benchmark
  public int doubleFloorBits() {
    return JumpVariants.doubleFloorBits(next(), buckets);
  }

  @Benchmark
  public int doubleFloorBitsLag3() {
    return JumpVariants.doubleFloorBitsLag3(next(), buckets);
  }

  @Benchmark
  public int textbookChained() {
    return last = JumpVariants.textbook(nextChained(), buckets);
  }

  @Benchmark
  public int doubleFloorBitsLag3Chained() {
    return last = JumpVariants.doubleFloorBitsLag3(nextChained(), buckets);
  }

  @Benchmark
  public int fmaFloorBitsLag3Chained() {
    return last = JumpVariants.fmaFloorBitsLag3(nextChained(), buckets);
  }
}
