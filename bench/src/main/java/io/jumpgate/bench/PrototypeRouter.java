package io.jumpgate.bench;

import io.jumpgate.routing.HashTagScanner;
import java.util.Objects;
import net.openhft.hashing.LongHashFunction;

/**
 * {@code Xxh64JumpRouter.shardOf(byte[])} with a faster exact jump: the same bounds check, hash-tag
 * scan and XXH64, then {@link JumpVariants#doubleFloorBitsLag3} ({@link #shardOf}) or {@link
 * JumpVariants#fmaFloorBitsLag3} ({@link #shardOfFma}), so that {@link RoutingBenchmark} can show
 * what the full routing would cost with them. A prototype for the routing module; not for use.
 */
public final class PrototypeRouter {

  private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

  private final int shardCount;

  public PrototypeRouter(int shardCount) {
    if (shardCount < 1) {
      throw new IllegalArgumentException("shard count must be at least 1, was " + shardCount);
    }
    this.shardCount = shardCount;
  }

  /** The shard, with the portable jump ({@link JumpVariants#doubleFloorBitsLag3}). */
  public int shardOf(byte[] key) {
    return JumpVariants.doubleFloorBitsLag3(routingHash(key, 0, key.length), shardCount);
  }

  /** The shard, with the FMA jump ({@link JumpVariants#fmaFloorBitsLag3}). */
  public int shardOfFma(byte[] key) {
    return JumpVariants.fmaFloorBitsLag3(routingHash(key, 0, key.length), shardCount);
  }

  /** The shard, with {@link FastHashTagScanner} and the portable jump. */
  public int shardOfFastScan(byte[] key) {
    long range = FastHashTagScanner.routingKey(key, 0, key.length);
    long hash = XXH64.hashBytes(key, HashTagScanner.start(range), HashTagScanner.length(range));
    return JumpVariants.doubleFloorBitsLag3(hash, shardCount);
  }

  static long routingHash(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    long range = HashTagScanner.routingKey(key, offset, length);
    return XXH64.hashBytes(key, HashTagScanner.start(range), HashTagScanner.length(range));
  }
}
