package io.jumpgate.driver;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZAddArgs;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Sorted-set commands (ZADD, ZREM, ZSCORE, ZINCRBY, ZRANGE, ...), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateSortedSetAsyncCommands<K, V> {

  /** ZADD of one member: the number of members added (1, or 0 when only its score changed). */
  CompletionStage<Long> zadd(K key, double score, V member);

  /**
   * ZADD of several members: the number of members added (those whose score only changed not
   * counted). No members: {@link IllegalArgumentException}; an empty {@link ScoredValue}: {@link
   * NullPointerException}.
   */
  CompletionStage<Long> zadd(K key, ScoredValue<V>... scoredValues);

  /**
   * ZADD with options (NX, XX, GT, LT, CH): the number of members added, or changed with CH. Never
   * retried when its fate is unknown (the answer of a second try would mislead, as for SET NX).
   */
  CompletionStage<Long> zadd(K key, ZAddArgs zAddArgs, double score, V member);

  /**
   * ZADD of several members with options; see {@link #zadd(Object, ZAddArgs, double, Object)}.
   * Never retried when its fate is unknown.
   */
  CompletionStage<Long> zadd(K key, ZAddArgs zAddArgs, ScoredValue<V>... scoredValues);

  /** ZREM: the number of members removed. No members: {@link IllegalArgumentException}. */
  CompletionStage<Long> zrem(K key, V... members);

  /** ZSCORE: the member's score, or null when the member or the key does not exist. */
  CompletionStage<Double> zscore(K key, V member);

  /** ZINCRBY: the member's new score. Never retried when its fate is unknown. */
  CompletionStage<Double> zincrby(K key, double amount, V member);

  /**
   * ZRANGE by index: the members between the ranks, both included, lowest score first; negative
   * ranks count from the end ({@code 0, -1} is the whole set).
   */
  CompletionStage<List<V>> zrange(K key, long start, long stop);

  /** ZRANGE ... WITHSCORES: like {@link #zrange}, each member with its score. */
  CompletionStage<List<ScoredValue<V>>> zrangeWithScores(K key, long start, long stop);

  /**
   * ZRANGEBYSCORE: the members whose score is in the range, lowest first. Bounds may be included,
   * excluded or unbounded ({@code Range.create(1, 5)}, {@code Range.from(Boundary.excluding(1),
   * Boundary.unbounded())}); infinite doubles are sent as {@code -inf}/{@code +inf}.
   */
  CompletionStage<List<V>> zrangebyscore(K key, Range<? extends Number> range);

  /** ZRANGEBYSCORE ... LIMIT offset count; {@link Limit#unlimited()} sends no LIMIT. */
  CompletionStage<List<V>> zrangebyscore(K key, Range<? extends Number> range, Limit limit);

  /** ZCARD: the number of members, 0 for a missing key. */
  CompletionStage<Long> zcard(K key);

  /** ZRANK: the member's rank (0 for the lowest score), or null when it is not in the set. */
  CompletionStage<Long> zrank(K key, V member);
}
