package io.jumpgate.driver;

import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Set commands (SADD, SREM, SMEMBERS, ...), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateSetAsyncCommands<K, V> {

  /**
   * SADD: the number of members added (those already present not counted). No members: {@link
   * IllegalArgumentException}.
   */
  CompletionStage<Long> sadd(K key, V... members);

  /** SREM: the number of members removed. No members: {@link IllegalArgumentException}. */
  CompletionStage<Long> srem(K key, V... members);

  /** SMEMBERS: every member; empty when the key does not exist. */
  CompletionStage<Set<V>> smembers(K key);

  /** SISMEMBER: true when the member is in the set. */
  CompletionStage<Boolean> sismember(K key, V member);

  /** SCARD: the number of members, 0 for a missing key. */
  CompletionStage<Long> scard(K key);
}
