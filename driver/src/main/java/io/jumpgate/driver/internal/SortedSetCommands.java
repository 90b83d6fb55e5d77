package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.NON_IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;
import static io.jumpgate.driver.internal.CommandFlags.SAME_STATE_WRITE;

import io.jumpgate.driver.JumpgateSortedSetAsyncCommands;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The sorted-set commands, as default methods over the connection's {@link CommandExecutor}.
 *
 * <p>ZADD (with or without NX, XX, GT, LT, CH) and ZREM leave the same members and scores when run
 * twice, but answer differently (the count of added, changed or removed members is 0 the second
 * time): {@link CommandFlags#SAME_STATE_WRITE}. ZINCRBY adds again: never sent twice. ZADD INCR is
 * not offered.
 */
interface SortedSetCommands<K, V> extends JumpgateSortedSetAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  default CompletionStage<Long> zadd(K key, double score, V member) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args =
        x.args(key).add(score).addValue(Objects.requireNonNull(member, "member"));
    return x.keyed(CommandType.ZADD, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> zadd(K key, ScoredValue<V>... scoredValues) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    addScoredValues(args, scoredValues);
    return x.keyed(CommandType.ZADD, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Long> zadd(K key, ZAddArgs zAddArgs, double score, V member) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    Objects.requireNonNull(zAddArgs, "zAddArgs").build(args);
    args.add(score).addValue(Objects.requireNonNull(member, "member"));
    return x.keyed(CommandType.ZADD, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> zadd(K key, ZAddArgs zAddArgs, ScoredValue<V>... scoredValues) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    Objects.requireNonNull(zAddArgs, "zAddArgs").build(args);
    addScoredValues(args, scoredValues);
    return x.keyed(CommandType.ZADD, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> zrem(K key, V... members) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    Objects.requireNonNull(members, "members");
    if (members.length == 0) {
      throw new IllegalArgumentException("members must not be empty");
    }
    for (int index = 0; index < members.length; index++) {
      if (members[index] == null) {
        throw new NullPointerException("members[" + index + "]");
      }
    }
    args.addValues(members);
    return x.keyed(CommandType.ZREM, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Double> zscore(K key, V member) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(member, "member"));
    return x.keyed(CommandType.ZSCORE, key, args, Outputs.decimal(), READ_ONLY);
  }

  @Override
  default CompletionStage<Double> zincrby(K key, double amount, V member) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args =
        x.args(key).add(amount).addValue(Objects.requireNonNull(member, "member"));
    return x.keyed(CommandType.ZINCRBY, key, args, Outputs.decimal(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<List<V>> zrange(K key, long start, long stop) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).add(start).add(stop);
    return x.keyed(CommandType.ZRANGE, key, args, Outputs.valueList(), READ_ONLY);
  }

  @Override
  default CompletionStage<List<ScoredValue<V>>> zrangeWithScores(K key, long start, long stop) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).add(start).add(stop).add(CommandKeyword.WITHSCORES);
    return x.keyed(CommandType.ZRANGE, key, args, Outputs.scoredValueList(), READ_ONLY);
  }

  @Override
  default CompletionStage<List<V>> zrangebyscore(K key, Range<? extends Number> range) {
    return zrangebyscore(key, range, Limit.unlimited());
  }

  @Override
  default CompletionStage<List<V>> zrangebyscore(
      K key, Range<? extends Number> range, Limit limit) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(limit, "limit");
    args.add(bound(range.getLower(), "-inf")).add(bound(range.getUpper(), "+inf"));
    if (limit.isLimited()) {
      args.add(CommandKeyword.LIMIT).add(limit.getOffset()).add(limit.getCount());
    }
    return x.keyed(CommandType.ZRANGEBYSCORE, key, args, Outputs.valueList(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> zcard(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.ZCARD, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> zrank(K key, V member) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(member, "member"));
    return x.keyed(CommandType.ZRANK, key, args, Outputs.integer(), READ_ONLY);
  }

  /** Adds score-member pairs; none, a null one or an empty one throws. */
  private static <K, V> void addScoredValues(
      CommandArgs<K, V> args, ScoredValue<V>[] scoredValues) {
    Objects.requireNonNull(scoredValues, "scoredValues");
    if (scoredValues.length == 0) {
      throw new IllegalArgumentException("scoredValues must not be empty");
    }
    for (int index = 0; index < scoredValues.length; index++) {
      ScoredValue<V> scored = scoredValues[index];
      if (scored == null || !scored.hasValue()) {
        throw new NullPointerException("scoredValues[" + index + "]");
      }
      args.add(scored.getScore()).addValue(scored.getValue());
    }
  }

  /**
   * A score bound as ZRANGEBYSCORE takes it: {@code 1.5}, {@code (1.5} when excluded, the infinity
   * when unbounded (or infinite).
   */
  private static String bound(Range.Boundary<? extends Number> boundary, String infinity) {
    Number value = boundary == null ? null : boundary.getValue();
    if (value == null || boundary.isUnbounded()) {
      return infinity;
    }
    if ((value instanceof Double || value instanceof Float)
        && Double.isInfinite(value.doubleValue())) {
      return value.doubleValue() > 0 ? "+inf" : "-inf";
    }
    String text = value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
    return boundary.isIncluding() ? text : "(" + text;
  }
}
