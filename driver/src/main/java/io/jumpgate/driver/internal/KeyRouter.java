package io.jumpgate.driver.internal;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

/**
 * The shard of a key of any codec, computed on the bytes the codec sends. Immutable, thread-safe.
 *
 * <p>UTF-8 string keys ({@link StringCodec#UTF8}) and byte-array keys are routed without
 * allocating; other codecs are asked to encode the key ({@code encodeKey}), which allocates what
 * that codec allocates.
 */
public abstract class KeyRouter<K> {

  /** The shard of a key. */
  public abstract int shardOf(K key);

  /**
   * The shard of every key, into {@code shards} at the key's index; no key may be null.
   *
   * <p>A pass of its own first reads each key's length (and so the start of its bytes) and writes
   * it where the key's shard will go; the hashing pass then finds the keys in the cache. The keys
   * of a large request are seldom cached, and those reads, independent of each other, wait for
   * memory together instead of one after another inside the hashing of each key. The length is
   * stored, not dropped, so that the compiler keeps the reads. Keys of other codecs are encoded
   * before hashing, and that first pass reads nothing of them.
   */
  public final void shardsOf(K[] keys, int[] shards) {
    for (int index = 0; index < keys.length; index++) {
      shards[index] = lengthOf(keys[index]);
    }
    for (int index = 0; index < keys.length; index++) {
      shards[index] = shardOf(keys[index]);
    }
  }

  /**
   * A read of the key that brings the start of its bytes into the cache: its length for byte-array
   * and string keys; 0 (no read) for keys that are encoded before hashing.
   */
  abstract int lengthOf(K key);

  /** A router for the codec's keys. */
  @SuppressWarnings("unchecked")
  public static <K> KeyRouter<K> of(RedisCodec<K, ?> codec, Xxh64JumpRouter router) {
    if (codec == StringCodec.UTF8) {
      return (KeyRouter<K>) new Utf8StringKeys(router);
    }
    if (codec instanceof ByteArrayCodec) {
      return (KeyRouter<K>) new ByteArrayKeys(router);
    }
    return new EncodedKeys<>(codec, router);
  }

  private static final class Utf8StringKeys extends KeyRouter<String> {
    private final Xxh64JumpRouter router;

    Utf8StringKeys(Xxh64JumpRouter router) {
      this.router = router;
    }

    @Override
    public int shardOf(String key) {
      return router.shardOfUtf8(key);
    }

    @Override
    int lengthOf(String key) {
      return key.length();
    }
  }

  private static final class ByteArrayKeys extends KeyRouter<byte[]> {
    private final Xxh64JumpRouter router;

    ByteArrayKeys(Xxh64JumpRouter router) {
      this.router = router;
    }

    @Override
    public int shardOf(byte[] key) {
      return router.shardOf(key);
    }

    @Override
    int lengthOf(byte[] key) {
      return key.length;
    }
  }

  private static final class EncodedKeys<K> extends KeyRouter<K> {
    private final RedisCodec<K, ?> codec;
    private final Xxh64JumpRouter router;

    EncodedKeys(RedisCodec<K, ?> codec, Xxh64JumpRouter router) {
      this.codec = codec;
      this.router = router;
    }

    @Override
    public int shardOf(K key) {
      return router.shardOf(codec.encodeKey(key));
    }

    @Override
    int lengthOf(K key) {
      return 0;
    }
  }
}
