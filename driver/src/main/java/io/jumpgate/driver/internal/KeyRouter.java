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
  }
}
