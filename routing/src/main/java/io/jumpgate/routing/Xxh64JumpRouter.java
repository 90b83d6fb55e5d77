package io.jumpgate.routing;

import io.jumpgate.routing.internal.Utf8Keys;
import io.jumpgate.spi.ShardRouter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

/**
 * The {@code xxh64-jump} routing scheme: routing key (hash tag or whole key) -> XXH64 with seed 0
 * -> jump consistent hash into {@link #shardCount()} shards.
 *
 * <p>Immutable and thread-safe; share one instance per shard count. {@code shardOf} and {@code
 * routingHash} take no lock and allocate nothing: they read the key in place, also from a heap or
 * direct {@link ByteBuffer}, whose position and limit they leave as they were.
 *
 * <p>Default: {@link #DEFAULT_SHARDS} shards ({@link #withDefaultShards()}).
 */
public final class Xxh64JumpRouter implements ShardRouter {

  /** The scheme's name as the cluster metadata writes it. */
  public static final String SCHEME = "xxh64-jump";

  /** The shard count of a cluster that does not choose one: 1024. */
  public static final int DEFAULT_SHARDS = 1024;

  private static final LongHashFunction XXH64 = LongHashFunction.xx(0);
  private static final Access<ByteBuffer> BYTE_BUFFER_ACCESS = Access.toByteBuffer();

  private final int shardCount;

  private Xxh64JumpRouter(int shardCount) {
    this.shardCount = shardCount;
  }

  /**
   * A router into {@code shardCount} shards.
   *
   * @param shardCount at least 1 (clusters use 1 to 65536; the function itself takes up to {@link
   *     Integer#MAX_VALUE})
   * @throws IllegalArgumentException if {@code shardCount} is less than 1
   */
  public static Xxh64JumpRouter forShards(int shardCount) {
    if (shardCount < 1) {
      throw new IllegalArgumentException("shard count must be at least 1, was " + shardCount);
    }
    return new Xxh64JumpRouter(shardCount);
  }

  /** A router into {@link #DEFAULT_SHARDS} shards. */
  public static Xxh64JumpRouter withDefaultShards() {
    return forShards(DEFAULT_SHARDS);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public int shardCount() {
    return shardCount;
  }

  @Override
  public int shardOf(byte[] key) {
    return JumpHash.bucketUnchecked(routingHash(key, 0, key.length), shardCount);
  }

  @Override
  public int shardOf(byte[] key, int offset, int length) {
    return JumpHash.bucketUnchecked(routingHash(key, offset, length), shardCount);
  }

  @Override
  public int shardOf(ByteBuffer key) {
    return JumpHash.bucketUnchecked(routingHash(key), shardCount);
  }

  /**
   * The shard of a text key, routed by its UTF-8 bytes (what a UTF-8 codec sends on the wire).
   * Encodes into a per-thread scratch array (no allocation once the thread's array is large
   * enough), then reads it as {@link #shardOf(byte[])} does. Finding the hash tag while encoding,
   * in one pass, measured slower than this tight encoding loop followed by the 8-bytes-a-step tag
   * scan ({@code RoutingBenchmark} j and k).
   */
  public int shardOfUtf8(CharSequence key) {
    return JumpHash.bucketUnchecked(routingHashUtf8(key), shardCount);
  }

  /** The shard of a 64-bit routing hash, as {@link #routingHash} returns it. */
  public int shardOfHash(long routingHash) {
    return JumpHash.bucketUnchecked(routingHash, shardCount);
  }

  /**
   * XXH64 (seed 0) of a key's routing key. Read the result as unsigned ({@link
   * Long#toUnsignedString(long)}).
   */
  public static long routingHash(byte[] key) {
    return routingHash(key, 0, key.length);
  }

  /** XXH64 (seed 0) of the routing key of {@code key[offset, offset + length)}. */
  public static long routingHash(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    long range = HashTagScanner.routingKey(key, offset, length);
    return XXH64.hashBytes(key, HashTagScanner.start(range), HashTagScanner.length(range));
  }

  /**
   * XXH64 (seed 0) of the routing key of a text key's UTF-8 bytes: the same as {@link
   * #routingHash(byte[])} of {@code key}'s UTF-8 encoding, without allocating once the thread's
   * scratch array is large enough.
   */
  public static long routingHashUtf8(CharSequence key) {
    byte[] scratch = Utf8Keys.scratchFor(key);
    int length = Utf8Keys.encode(key, scratch);
    long range = HashTagScanner.routingKey(scratch, 0, length);
    return XXH64.hashBytes(scratch, HashTagScanner.start(range), HashTagScanner.length(range));
  }

  /** XXH64 (seed 0) of the routing key of a buffer's remaining bytes; the buffer is not changed. */
  public static long routingHash(ByteBuffer key) {
    if (key.hasArray()) {
      int base = key.arrayOffset();
      return routingHash(key.array(), base + key.position(), key.remaining());
    }
    // Direct buffer: read through absolute gets. LongHashFunction.hashBytes(ByteBuffer) would reach
    // into sun.nio.ch.DirectBuffer, which JDK 17 does not export (IllegalAccessError).
    long range = HashTagScanner.routingKey(key);
    return XXH64.hash(
        key, BYTE_BUFFER_ACCESS, HashTagScanner.start(range), HashTagScanner.length(range));
  }

  /**
   * A copy of a key's routing key: the bytes of its hash tag, or the whole key. For tools and
   * diagnostics; it allocates.
   */
  public static byte[] routingKey(byte[] key) {
    long range = HashTagScanner.routingKey(key, 0, key.length);
    int start = HashTagScanner.start(range);
    return Arrays.copyOfRange(key, start, start + HashTagScanner.length(range));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Xxh64JumpRouter && ((Xxh64JumpRouter) other).shardCount == shardCount;
  }

  @Override
  public int hashCode() {
    return Integer.hashCode(shardCount);
  }

  @Override
  public String toString() {
    return "Xxh64JumpRouter{shards=" + shardCount + "}";
  }
}
