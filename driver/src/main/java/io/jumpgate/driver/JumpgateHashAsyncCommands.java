package io.jumpgate.driver;

import io.lettuce.core.KeyValue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Hash commands (HSET, HGET, HMGET, HGETALL, ...), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateHashAsyncCommands<K, V> {

  /** HSET of one field: true when the field is new, false when its value was replaced. */
  CompletionStage<Boolean> hset(K key, K field, V value);

  /**
   * HSET of every entry of the map: the number of fields added (replaced ones not counted). An
   * empty map: {@link IllegalArgumentException}.
   */
  CompletionStage<Long> hset(K key, Map<K, V> map);

  /** HGET: the field's value, or null when the field or the key does not exist. */
  CompletionStage<V> hget(K key, K field);

  /**
   * HMGET: one {@link KeyValue} per field, in request order, empty for a missing field. No fields:
   * {@link IllegalArgumentException}.
   */
  CompletionStage<List<KeyValue<K, V>>> hmget(K key, K... fields);

  /** HGETALL: every field and value (in the server's order); empty when the key does not exist. */
  CompletionStage<Map<K, V>> hgetall(K key);

  /** HDEL: the number of fields removed. No fields: {@link IllegalArgumentException}. */
  CompletionStage<Long> hdel(K key, K... fields);

  /** HEXISTS: true when the field exists. */
  CompletionStage<Boolean> hexists(K key, K field);

  /** HINCRBY: the field's new value. Never retried when its fate is unknown. */
  CompletionStage<Long> hincrby(K key, K field, long amount);

  /** HLEN: the number of fields, 0 for a missing key. */
  CompletionStage<Long> hlen(K key);

  /** HKEYS: every field; empty when the key does not exist. */
  CompletionStage<List<K>> hkeys(K key);

  /** HVALS: every value; empty when the key does not exist. */
  CompletionStage<List<V>> hvals(K key);
}
