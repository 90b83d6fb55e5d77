package io.jumpgate.bench;

import com.google.common.hash.Hashing;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.openhft.hashing.LongHashFunction;

/**
 * A cross-check of {@link RoutingBenchmark} for a busy machine: the same variants on the same keys,
 * timed by the thread's CPU time (so time spent descheduled by other processes does not count), run
 * round-robin so that slow phases of the machine hit every variant alike, reporting the median and
 * the minimum over rounds. Not a replacement for JMH (no forks, one JIT profile per variant, no
 * blackhole: results are summed), but its ratios are stable where JMH's errors are not.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.jumpgate.bench.CpuTimeComparison [keyLength] [hashTag] [keyCount] [rounds]
 * </pre>
 *
 * Defaults: 16 false 16384 21.
 */
public final class CpuTimeComparison {

  private static final LongHashFunction XXH64 = LongHashFunction.xx(0);
  private static final int SHARDS = RoutingBenchmark.SHARDS;
  private static final String[] NAMES = {
    "a_xxh64",
    "b_xxh64TextbookJump",
    "c_xxh64GuavaConsistentHash",
    "d_router",
    "e_routingHash",
    "f_xxh64FastJump",
    "g_prototypeRouter",
    "h_prototypeRouterFma",
    "i_prototypeRouterFastScan",
    "j_routerString",
    "k_prototypeRouterStringOnePass"
  };

  private CpuTimeComparison() {}

  public static void main(String[] args) {
    int keyLength = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    boolean hashTag = args.length > 1 && Boolean.parseBoolean(args[1]);
    int keyCount = args.length > 2 ? Integer.parseInt(args[2]) : 16384;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 21;

    byte[][] keys =
        Keys.generate(keyCount, keyLength, hashTag, 31L * keyLength + (hashTag ? 1 : 0));
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    PrototypeRouter prototype = new PrototypeRouter(SHARDS);
    String[] stringKeys = new String[keyCount];
    for (int index = 0; index < keyCount; index++) {
      stringKeys[index] = new String(keys[index], StandardCharsets.UTF_8);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int passes = Math.max(1, 4_000_000 / keyCount);
    double[][] nanos = new double[NAMES.length][rounds];
    long sink = 0;
    for (int warmup = 0; warmup < 5; warmup++) {
      for (int v = 0; v < NAMES.length; v++) {
        sink += run(v, keys, stringKeys, passes, router, prototype);
      }
    }
    for (int round = 0; round < rounds; round++) {
      for (int v = 0; v < NAMES.length; v++) {
        long start = threads.getCurrentThreadCpuTime();
        sink += run(v, keys, stringKeys, passes, router, prototype);
        nanos[v][round] =
            (threads.getCurrentThreadCpuTime() - start) / ((double) passes * keyCount);
      }
    }
    System.out.printf(
        "keyLength=%d hashTag=%b keyCount=%d rounds=%d (ns/op of thread CPU time)%n",
        keyLength, hashTag, keyCount, rounds);
    double[] medians = new double[NAMES.length];
    for (int v = 0; v < NAMES.length; v++) {
      double[] sorted = nanos[v].clone();
      Arrays.sort(sorted);
      medians[v] = sorted[rounds / 2];
      System.out.printf(
          "%-28s median %7.2f  min %7.2f  max %7.2f%n",
          NAMES[v], medians[v], sorted[0], sorted[rounds - 1]);
    }
    System.out.printf("d/b (median) = %.3f%n", medians[3] / medians[1]);
    System.out.printf("g/b (median) = %.3f%n", medians[6] / medians[1]);
    System.out.printf("h/b (median) = %.3f%n", medians[7] / medians[1]);
    System.out.printf("i/b (median) = %.3f%n", medians[8] / medians[1]);
    System.out.printf("j/d (median) = %.3f%n", medians[9] / medians[3]);
    System.out.printf("k/j (median) = %.3f%n", medians[10] / medians[9]);
    System.out.println("(checksum " + sink + ")");
  }

  private static long run(
      int variant,
      byte[][] keys,
      String[] stringKeys,
      int passes,
      Xxh64JumpRouter router,
      PrototypeRouter prototype) {
    long sum = 0;
    for (int pass = 0; pass < passes; pass++) {
      switch (variant) {
        case 0:
          for (byte[] key : keys) {
            sum += XXH64.hashBytes(key);
          }
          break;
        case 1:
          for (byte[] key : keys) {
            sum += JumpVariants.textbook(XXH64.hashBytes(key), SHARDS);
          }
          break;
        case 2:
          for (byte[] key : keys) {
            sum += Hashing.consistentHash(XXH64.hashBytes(key), SHARDS);
          }
          break;
        case 3:
          for (byte[] key : keys) {
            sum += router.shardOf(key);
          }
          break;
        case 4:
          for (byte[] key : keys) {
            sum += Xxh64JumpRouter.routingHash(key);
          }
          break;
        case 5:
          for (byte[] key : keys) {
            sum += JumpVariants.doubleFloorBitsLag3(XXH64.hashBytes(key), SHARDS);
          }
          break;
        case 6:
          for (byte[] key : keys) {
            sum += prototype.shardOf(key);
          }
          break;
        case 7:
          for (byte[] key : keys) {
            sum += prototype.shardOfFma(key);
          }
          break;
        case 8:
          for (byte[] key : keys) {
            sum += prototype.shardOfFastScan(key);
          }
          break;
        case 9:
          for (String key : stringKeys) {
            sum += router.shardOfUtf8(key);
          }
          break;
        case 10:
          for (String key : stringKeys) {
            sum += prototype.shardOfUtf8OnePass(key);
          }
          break;
        default:
          throw new IllegalArgumentException("variant " + variant);
      }
    }
    return sum;
  }
}
