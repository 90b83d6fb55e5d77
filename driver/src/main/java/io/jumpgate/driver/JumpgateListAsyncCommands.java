package io.jumpgate.driver;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * List commands (LPUSH, RPUSH, LPOP, RPOP, LRANGE, ...), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateListAsyncCommands<K, V> {

  /**
   * LPUSH: the list's new length; the values go to the head one after the other, so the last one
   * ends up first. No values: {@link IllegalArgumentException}. Never retried when its fate is
   * unknown.
   */
  CompletionStage<Long> lpush(K key, V... values);

  /**
   * RPUSH: the list's new length; the values go to the tail in order. No values: {@link
   * IllegalArgumentException}. Never retried when its fate is unknown.
   */
  CompletionStage<Long> rpush(K key, V... values);

  /**
   * LPOP: the first element, removed; null when the list is empty. Never retried when its fate is
   * unknown.
   */
  CompletionStage<V> lpop(K key);

  /**
   * LPOP with a count: up to {@code count} elements from the head, removed; empty when the key does
   * not exist. Never retried when its fate is unknown.
   */
  CompletionStage<List<V>> lpop(K key, long count);

  /**
   * RPOP: the last element, removed; null when the list is empty. Never retried when its fate is
   * unknown.
   */
  CompletionStage<V> rpop(K key);

  /**
   * RPOP with a count: up to {@code count} elements from the tail (the last first), removed; empty
   * when the key does not exist. Never retried when its fate is unknown.
   */
  CompletionStage<List<V>> rpop(K key, long count);

  /**
   * LRANGE: the elements between the indices, both included; negative indices count from the end
   * ({@code 0, -1} is the whole list).
   */
  CompletionStage<List<V>> lrange(K key, long start, long stop);

  /** LLEN: the list's length, 0 for a missing key. */
  CompletionStage<Long> llen(K key);

  /** LINDEX: the element at the index (negative: from the end), or null when out of range. */
  CompletionStage<V> lindex(K key, long index);
}
