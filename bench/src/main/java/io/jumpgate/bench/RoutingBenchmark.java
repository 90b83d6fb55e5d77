package io.jumpgate.bench;

import com.google.common.hash.Hashing;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.util.concurrent.TimeUnit;
import net.openhft.hashing.LongHashFunction;
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
 * Key -> shard into 1024 shards: the full routing next to its parts, on 8, 16, 64 and 256-byte
 * keys, with and without a hash tag ({@link Keys#generate}: {@code {userNNNN}} at a random place,
 * the rest random). Each invocation takes the next of {@code keyCount} distinct pre-generated keys.
 *
 * <p>{@code keyCount} is 16384 by default, not 1024: the jump loop exits after a key-dependent
 * number of steps, and with only 1024 keys cycled the branch predictor learns a good part of those
 * exits, so the jump looks faster than it is on real traffic (about 40 instead of 45 ns per jump
 * into 1024 buckets for the contract's loop here, and 13 to 20 instead of 30 ns for the faster
 * variants). Run with {@code -p keyCount=1024} to see it.
 *
 * <ul>
 *   <li>{@link #a_xxh64}: bare XXH64 (seed 0) of the whole key.
 *   <li>{@link #b_xxh64TextbookJump}: the same, then the contract's jump loop written out ({@link
 *       JumpVariants#textbook}): the acceptance baseline.
 *   <li>{@link #c_xxh64GuavaConsistentHash}: the same hash, then Guava's {@code
 *       Hashing.consistentHash}. That is the same jump algorithm with a different floating-point
 *       grouping ({@code (b + 1) / (u / 2^31)} instead of {@code (b + 1) * (2^31 / u)}), so it
 *       picks another bucket for rare keys and must not be used for routing; it is here for speed
 *       only.
 *   <li>{@link #d_router}: the real thing, {@code Xxh64JumpRouter.forShards(1024).shardOf(key)}:
 *       bounds check, hash-tag scan, XXH64 of the routing key, jump (since issue 14 the jump of
 *       (f), so (d) and (g) run the same code).
 *   <li>{@link #e_routingHash}: {@code Xxh64JumpRouter.routingHash(key)}: (d) without the jump, so
 *       (e) - (a) is the cost of the bounds check and the hash-tag scan.
 *   <li>{@link #f_xxh64FastJump}: (b) with the exact, portable prototype jump {@link
 *       JumpVariants#doubleFloorBitsLag3}.
 *   <li>{@link #g_prototypeRouter}: (d) with that jump ({@link PrototypeRouter#shardOf}).
 *   <li>{@link #h_prototypeRouterFma}: (d) with the exact FMA prototype jump {@link
 *       JumpVariants#fmaFloorBitsLag3} ({@link PrototypeRouter#shardOfFma}).
 *   <li>{@link #i_prototypeRouterFastScan}: (g) with the prototype hash-tag scan {@link
 *       FastHashTagScanner} ({@link PrototypeRouter#shardOfFastScan}).
 *   <li>{@link #j_routerString}: (d) on the same key as a {@code String} ({@code shardOfUtf8}:
 *       UTF-8 encoding into a per-thread array, then what (d) does), next to (d) on its bytes.
 *   <li>{@link #k_prototypeRouterStringOnePass}: (j) with the hash tag found while encoding instead
 *       of by a scan of the encoded bytes ({@link PrototypeRouter#shardOfUtf8OnePass}).
 * </ul>
 *
 * <p>With a hash tag, (d), (e), (g), (h) and (i) hash only the tag's bytes while (a), (b), (c) and
 * (f) hash the whole key. The acceptance compares (d) with (b) on 16-byte keys.
 *
 * <p>Run (after {@code mvn -B -ntp -pl bench package}; {@code -prof gc} adds {@code
 * gc.alloc.rate.norm}, the bytes allocated per operation):
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar RoutingBenchmark -prof gc -f 3 -wi 5 -w 1s -i 5 -r 1s
 * </pre>
 *
 * <p>Only 16-byte keys: add {@code -p keyLength=16}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(3)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class RoutingBenchmark {

  static final int SHARDS = 1024;
  private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

  @Param({"8", "16", "64", "256"})
  public int keyLength;

  @Param({"false", "true"})
  public boolean hashTag;

  /** How many distinct keys are cycled; a power of two. */
  @Param({"16384"})
  public int keyCount;

  byte[][] keys;
  String[] stringKeys;
  Xxh64JumpRouter router;
  PrototypeRouter prototype;
  int shards;
  int index;
  private int mask;

  @Setup
  public void setUp() {
    if (Integer.bitCount(keyCount) != 1) {
      throw new IllegalArgumentException("keyCount must be a power of two, was " + keyCount);
    }
    keys = Keys.generate(keyCount, keyLength, hashTag, 31L * keyLength + (hashTag ? 1 : 0));
    stringKeys = new String[keyCount];
    for (int index = 0; index < keyCount; index++) {
      stringKeys[index] = new String(keys[index], java.nio.charset.StandardCharsets.UTF_8);
    }
    mask = keyCount - 1;
    router = Xxh64JumpRouter.forShards(SHARDS);
    prototype = new PrototypeRouter(SHARDS);
    shards = SHARDS;
  }

  private byte[] nextKey() {
    return keys[index++ & mask];
  }

  /** (a) bare XXH64 of the key's bytes. */
  @Benchmark
  public long a_xxh64() {
    return XXH64.hashBytes(nextKey());
  }

  /** (b) bare XXH64 + the contract's jump loop into 1024 buckets. */
  @Benchmark
  public int b_xxh64TextbookJump() {
    return JumpVariants.textbook(XXH64.hashBytes(nextKey()), shards);
  }

  /** (c) bare XXH64 + Guava's consistentHash (same algorithm, other rounding: not exact). */
  @Benchmark
  public int c_xxh64GuavaConsistentHash() {
    return Hashing.consistentHash(XXH64.hashBytes(nextKey()), shards);
  }

  /** (d) the full routing as shipped. */
  @Benchmark
  public int d_router() {
    return router.shardOf(nextKey());
  }

  /** (e) the routing hash as shipped: bounds check, hash-tag scan, XXH64 of the routing key. */
  @Benchmark
  public long e_routingHash() {
    return Xxh64JumpRouter.routingHash(nextKey());
  }

  /** (f) bare XXH64 + the exact portable prototype jump. */
  @Benchmark
  public int f_xxh64FastJump() {
    return JumpVariants.doubleFloorBitsLag3(XXH64.hashBytes(nextKey()), shards);
  }

  /** (g) the full routing with the exact portable prototype jump. */
  @Benchmark
  public int g_prototypeRouter() {
    return prototype.shardOf(nextKey());
  }

  /** (i) the full routing with the faster hash-tag scan and the exact portable prototype jump. */
  @Benchmark
  public int i_prototypeRouterFastScan() {
    return prototype.shardOfFastScan(nextKey());
  }

  /** (h) the full routing with the exact FMA prototype jump. */
  @Benchmark
  public int h_prototypeRouterFma() {
    return prototype.shardOfFma(nextKey());
  }

  /** (j) the full routing as shipped, on the key as a {@code String}. */
  @Benchmark
  public int j_routerString() {
    return router.shardOfUtf8(stringKeys[index++ & mask]);
  }

  /** (k) (j) with the hash tag found while encoding. */
  @Benchmark
  public int k_prototypeRouterStringOnePass() {
    return prototype.shardOfUtf8OnePass(stringKeys[index++ & mask]);
  }
}
