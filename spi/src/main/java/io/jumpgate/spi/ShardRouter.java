package io.jumpgate.spi;

import java.nio.ByteBuffer;

/**
 * Maps the bytes of a key to a virtual shard in {@code [0, shardCount())}.
 *
 * <p>The mapping is a wire contract: every client of a cluster, in every language, must compute the
 * same shard for the same key bytes. The key bytes are the key exactly as it is sent to the server
 * (for string keys: the codec's encoding, UTF-8 by default), never Java's UTF-16 characters.
 *
 * <p>Implementations are immutable and thread-safe; {@code shardOf} takes no lock and, on the
 * implementations Jumpgate ships, allocates nothing. None of the methods changes its arguments: a
 * {@link ByteBuffer}'s position and limit are left as they were.
 */
public interface ShardRouter {

  /** The routing scheme's name as written in the cluster metadata, e.g. {@code "xxh64-jump"}. */
  String scheme();

  /** The number of virtual shards this router maps into, at least 1. */
  int shardCount();

  /**
   * The shard of a key.
   *
   * @param key the key's bytes, not null
   * @return the shard, in {@code [0, shardCount())}
   */
  int shardOf(byte[] key);

  /**
   * The shard of a key held in a slice of an array.
   *
   * @param key the array that holds the key, not null
   * @param offset index of the key's first byte
   * @param length number of bytes in the key, 0 or more
   * @return the shard, in {@code [0, shardCount())}
   * @throws IndexOutOfBoundsException if the slice does not fit in the array
   */
  int shardOf(byte[] key, int offset, int length);

  /**
   * The shard of the key held in a buffer's remaining bytes ({@code position} to {@code limit}).
   * Heap and direct buffers are both read in place, without a copy.
   *
   * @param key the buffer, not null; its position and limit are not changed
   * @return the shard, in {@code [0, shardCount())}
   */
  int shardOf(ByteBuffer key);
}
