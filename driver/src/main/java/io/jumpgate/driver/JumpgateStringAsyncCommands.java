package io.jumpgate.driver;

import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * String commands, each sent to the leader (or, for reads, the node the read policy picks) of its
 * key's shard. MGET and MSET are split over the nodes (see {@link JumpgateAsyncCommands}).
 *
 * <p>Thread-safe. Every method throws {@link NullPointerException} naming the parameter before
 * sending anything when a key or value is null, and {@link IllegalStateException} after the client
 * was closed; every other failure completes the returned stage exceptionally.
 */
public interface JumpgateStringAsyncCommands<K, V> {

  /** GET: the value, or null when the key does not exist. */
  CompletionStage<V> get(K key);

  /** SET: {@code "OK"}. */
  CompletionStage<String> set(K key, V value);

  /**
   * SET with options (EX, PX, NX, XX, KEEPTTL, ...): {@code "OK"}, or null when NX/XX prevented it.
   * Not retried when its fate is unknown (NX/XX answers would mislead).
   */
  CompletionStage<String> set(K key, V value, SetArgs setArgs);

  /** SET ... GET: the old value, or null. */
  CompletionStage<V> setGet(K key, V value);

  /** SET ... GET with options. */
  CompletionStage<V> setGet(K key, V value, SetArgs setArgs);

  /** SETNX: true when the key was set. */
  CompletionStage<Boolean> setnx(K key, V value);

  /** SETEX: {@code "OK"}. */
  CompletionStage<String> setex(K key, long seconds, V value);

  /** GETSET: the old value, or null. */
  CompletionStage<V> getset(K key, V value);

  /** GETDEL: the value, or null; the key is deleted. */
  CompletionStage<V> getdel(K key);

  /** GETEX: the value, or null; the expiry is changed as the arguments say. */
  CompletionStage<V> getex(K key, GetExArgs args);

  /** INCR: the new value. Never retried when its fate is unknown. */
  CompletionStage<Long> incr(K key);

  /** INCRBY: the new value. Never retried when its fate is unknown. */
  CompletionStage<Long> incrby(K key, long amount);

  /** INCRBYFLOAT: the new value. Never retried when its fate is unknown. */
  CompletionStage<Double> incrbyfloat(K key, double amount);

  /** DECR: the new value. Never retried when its fate is unknown. */
  CompletionStage<Long> decr(K key);

  /** DECRBY: the new value. Never retried when its fate is unknown. */
  CompletionStage<Long> decrby(K key, long amount);

  /** APPEND: the new length. Never retried when its fate is unknown. */
  CompletionStage<Long> append(K key, V value);

  /** STRLEN: the length, 0 for a missing key. */
  CompletionStage<Long> strlen(K key);

  /** GETRANGE: the substring between the offsets, both included. */
  CompletionStage<V> getrange(K key, long start, long end);

  /** SETRANGE: the new length. */
  CompletionStage<Long> setrange(K key, long offset, V value);

  /**
   * MGET over any keys: one command per node (or per shard, see {@link FanOutGrouping}), all nodes
   * at once; the answer is in request order, with an empty {@link KeyValue} for a missing key. No
   * keys: an empty list without a network call.
   */
  CompletionStage<List<KeyValue<K, V>>> mget(K... keys);

  /** MGET of a list of keys; see {@link #mget(Object[])}. */
  CompletionStage<List<KeyValue<K, V>>> mget(Iterable<K> keys);

  /**
   * MSET over any keys: one MSET per node, all nodes at once; {@code "OK"} when every node said OK.
   * Not atomic across nodes: when one node fails, the others may have written their keys.
   */
  CompletionStage<String> mset(Map<K, V> map);
}
