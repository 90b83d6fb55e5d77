package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;
import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.ScoredValue;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.data.redis.connection.RedisZSetCommands;
import org.springframework.data.redis.connection.zset.DefaultTuple;
import org.springframework.data.redis.connection.zset.Tuple;

/**
 * Spring Data Redis's sorted-set commands on the driver, each sent to the sorted set key's shard.
 * Commands not listed here are refused by {@link UnsupportedZSetCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedZSetCommands extends UnsupportedZSetCommands {

  private final JumpgateCommands<byte[], byte[]> redis;

  RoutedZSetCommands(JumpgateCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Boolean zAdd(byte[] key, double score, byte[] value, RedisZSetCommands.ZAddArgs args) {
    try {
      Long added =
          args == null || args.isEmpty()
              ? redis.zadd(key, score, value)
              : redis.zadd(key, lettuceArguments(args), score, value);
      return added != null && added == 1;
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public Long zAdd(byte[] key, Set<Tuple> tuples, RedisZSetCommands.ZAddArgs args) {
    ScoredValue<byte[]>[] scored = new ScoredValue[tuples.size()];
    int index = 0;
    for (Tuple tuple : tuples) {
      scored[index++] = ScoredValue.just(tuple.getScore(), tuple.getValue());
    }
    return translated(
        () ->
            args == null || args.isEmpty()
                ? redis.zadd(key, scored)
                : redis.zadd(key, lettuceArguments(args), scored));
  }

  private static io.lettuce.core.ZAddArgs lettuceArguments(RedisZSetCommands.ZAddArgs args) {
    io.lettuce.core.ZAddArgs arguments = new io.lettuce.core.ZAddArgs();
    if (args.contains(RedisZSetCommands.ZAddArgs.Flag.NX)) {
      arguments.nx();
    }
    if (args.contains(RedisZSetCommands.ZAddArgs.Flag.XX)) {
      arguments.xx();
    }
    if (args.contains(RedisZSetCommands.ZAddArgs.Flag.GT)) {
      arguments.gt();
    }
    if (args.contains(RedisZSetCommands.ZAddArgs.Flag.LT)) {
      arguments.lt();
    }
    if (args.contains(RedisZSetCommands.ZAddArgs.Flag.CH)) {
      arguments.ch();
    }
    return arguments;
  }

  @Override
  public Long zRem(byte[] key, byte[]... values) {
    return translated(() -> redis.zrem(key, values));
  }

  @Override
  public Double zScore(byte[] key, byte[] value) {
    return translated(() -> redis.zscore(key, value));
  }

  @Override
  public Double zIncrBy(byte[] key, double increment, byte[] value) {
    return translated(() -> redis.zincrby(key, increment, value));
  }

  @Override
  public Long zCard(byte[] key) {
    return translated(() -> redis.zcard(key));
  }

  @Override
  public Long zRank(byte[] key, byte[] value) {
    return translated(() -> redis.zrank(key, value));
  }

  @Override
  public Set<byte[]> zRange(byte[] key, long start, long end) {
    return translated(() -> new LinkedHashSet<>(redis.zrange(key, start, end)));
  }

  @Override
  public Set<Tuple> zRangeWithScores(byte[] key, long start, long end) {
    try {
      List<ScoredValue<byte[]>> answers = redis.zrangeWithScores(key, start, end);
      Set<Tuple> tuples = new LinkedHashSet<>(answers.size() * 2);
      for (ScoredValue<byte[]> answer : answers) {
        tuples.add(new DefaultTuple(answer.getValue(), answer.getScore()));
      }
      return tuples;
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }
}
