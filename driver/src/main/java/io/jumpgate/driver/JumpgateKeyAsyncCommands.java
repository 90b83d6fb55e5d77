package io.jumpgate.driver;

import java.util.concurrent.CompletionStage;

/**
 * Key commands (DEL, EXISTS, EXPIRE, TTL, TYPE, ...): single-key ones go to the key's shard;
 * multi-key DEL, UNLINK, EXISTS and TOUCH are split over the nodes and their counts summed.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateKeyAsyncCommands<K, V> {

  /**
   * DEL: the number of keys removed. Several keys: one DEL per node (or per shard, see {@link
   * FanOutGrouping}), all at once, their counts summed; not atomic across nodes (when one node
   * fails, the others may have removed their keys). No keys: {@link IllegalArgumentException}.
   */
  CompletionStage<Long> del(K... keys);

  /**
   * UNLINK: like {@link #del(Object[]) DEL} (split and summed the same way), but the server frees
   * the memory in the background.
   */
  CompletionStage<Long> unlink(K... keys);

  /**
   * EXISTS: how many of the keys exist, a key named twice counting twice. Several keys: one EXISTS
   * per node, all at once, their counts summed. No keys: {@link IllegalArgumentException}.
   */
  CompletionStage<Long> exists(K... keys);

  /**
   * TOUCH: how many of the keys exist; their last access time is updated. Always sent to the
   * leaders, whatever the read policy (only a leader's access times drive eviction). Several keys:
   * one TOUCH per node, counts summed. No keys: {@link IllegalArgumentException}.
   */
  CompletionStage<Long> touch(K... keys);

  /** EXPIRE: true when the timeout was set, false when the key does not exist. */
  CompletionStage<Boolean> expire(K key, long seconds);

  /** PEXPIRE: true when the timeout was set, false when the key does not exist. */
  CompletionStage<Boolean> pexpire(K key, long milliseconds);

  /**
   * EXPIREAT: true when the timeout was set, false when the key does not exist. A time in the past
   * deletes the key.
   *
   * @param timestamp the expiry time, in seconds since the Unix epoch
   */
  CompletionStage<Boolean> expireat(K key, long timestamp);

  /** TTL: the time to live in seconds; -1 when the key has no expiry, -2 when it does not exist. */
  CompletionStage<Long> ttl(K key);

  /** PTTL: the time to live in milliseconds; -1 without expiry, -2 when the key does not exist. */
  CompletionStage<Long> pttl(K key);

  /** PERSIST: true when the timeout was removed, false when the key had none or does not exist. */
  CompletionStage<Boolean> persist(K key);

  /**
   * TYPE: the key's type ({@code "string"}, {@code "list"}, {@code "set"}, {@code "zset"}, {@code
   * "hash"}, {@code "stream"}), or {@code "none"} when it does not exist.
   */
  CompletionStage<String> type(K key);
}
