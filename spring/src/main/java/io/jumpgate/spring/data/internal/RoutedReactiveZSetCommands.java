package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.firstIndex;
import static io.jumpgate.spring.data.internal.ReactiveConversions.lastIndex;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ScoredValueListOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.List;
import org.reactivestreams.Publisher;
import org.springframework.data.domain.Range;
import org.springframework.data.domain.Sort;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import org.springframework.data.redis.connection.zset.DefaultTuple;
import org.springframework.data.redis.connection.zset.Tuple;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive sorted-set commands on the driver's reactive view, each sent when
 * subscribed to the sorted set key's shard: ZADD (with NX/XX/GT/LT/CH, or INCR for one member),
 * ZREM, ZINCRBY, ZSCORE, ZCARD, ZRANK and ZREVRANK, ZRANGE and ZREVRANGE (with or without scores),
 * ZRANGEBYSCORE and ZREVRANGEBYSCORE (with or without scores and LIMIT) and ZCOUNT. Commands not
 * listed here are refused by {@link UnsupportedReactiveZSetCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveZSetCommands extends UnsupportedReactiveZSetCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;

  RoutedReactiveZSetCommands(JumpgateReactiveCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Flux<NumericResponse<ZAddCommand, Number>> zAdd(Publisher<ZAddCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  List<Tuple> tuples = command.getTuples();
                  if (command.isIncr()) {
                    if (tuples.size() != 1) {
                      return Mono.error(
                          new org.springframework.dao.InvalidDataAccessApiUsageException(
                              "ZADD INCR takes exactly one member, got "
                                  + tuples.size()
                                  + " (nothing was sent)"));
                    }
                    Tuple only = tuples.get(0);
                    CommandArgs<byte[], byte[]> arguments =
                        flags(LeaderDispatch.arguments().addKey(key), command)
                            .add("INCR")
                            .add(only.getScore())
                            .addValue(only.getValue());
                    return redis
                        .dispatch(
                            key,
                            CommandType.ZADD,
                            new DoubleOutput<>(ByteArrayCodec.INSTANCE),
                            arguments)
                        .map(score -> new NumericResponse<ZAddCommand, Number>(command, score));
                  }
                  ScoredValue<byte[]>[] scored = new ScoredValue[tuples.size()];
                  for (int index = 0; index < scored.length; index++) {
                    Tuple tuple = tuples.get(index);
                    scored[index] = ScoredValue.just(tuple.getScore(), tuple.getValue());
                  }
                  io.lettuce.core.ZAddArgs arguments = lettuceArguments(command);
                  Mono<Long> answer =
                      arguments == null
                          ? redis.zadd(key, scored)
                          : redis.zadd(key, arguments, scored);
                  return answer.map(
                      added -> new NumericResponse<ZAddCommand, Number>(command, added));
                }));
  }

  private static io.lettuce.core.ZAddArgs lettuceArguments(ZAddCommand command) {
    if (!command.isIfNotExists()
        && !command.isIfExists()
        && !command.isGt()
        && !command.isLt()
        && !command.isReturnTotalChanged()) {
      return null;
    }
    io.lettuce.core.ZAddArgs arguments = new io.lettuce.core.ZAddArgs();
    if (command.isIfNotExists()) {
      arguments.nx();
    } else if (command.isIfExists()) {
      arguments.xx();
    }
    if (command.isGt()) {
      arguments.gt();
    } else if (command.isLt()) {
      arguments.lt();
    }
    if (command.isReturnTotalChanged()) {
      arguments.ch();
    }
    return arguments;
  }

  private static CommandArgs<byte[], byte[]> flags(
      CommandArgs<byte[], byte[]> arguments, ZAddCommand command) {
    if (command.isIfNotExists()) {
      arguments.add("NX");
    } else if (command.isIfExists()) {
      arguments.add("XX");
    }
    if (command.isGt()) {
      arguments.add("GT");
    } else if (command.isLt()) {
      arguments.add("LT");
    }
    return arguments;
  }

  @Override
  public Flux<NumericResponse<ZRemCommand, Long>> zRem(Publisher<ZRemCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .zrem(bytes(command.getKey()), bytes(command.getValues()))
                        .map(removed -> new NumericResponse<>(command, removed))));
  }

  @Override
  public Flux<NumericResponse<ZIncrByCommand, Double>> zIncrBy(Publisher<ZIncrByCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .zincrby(
                            bytes(command.getKey()),
                            command.getIncrement().doubleValue(),
                            bytes(command.getValue()))
                        .map(score -> new NumericResponse<>(command, score))));
  }

  @Override
  public Flux<NumericResponse<ZScoreCommand, Double>> zScore(Publisher<ZScoreCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .zscore(bytes(command.getKey()), bytes(command.getValue()))
                        .map(score -> new NumericResponse<>(command, score))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> zCard(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .zcard(bytes(command.getKey()))
                        .map(count -> new NumericResponse<>(command, count))));
  }

  @Override
  public Flux<NumericResponse<ZRankCommand, Long>> zRank(Publisher<ZRankCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  byte[] member = bytes(command.getValue());
                  Mono<Long> answer =
                      command.getDirection() == Sort.Direction.DESC
                          ? redis.dispatch(
                              key,
                              CommandType.ZREVRANK,
                              new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                              LeaderDispatch.arguments().addKey(key).addValue(member))
                          : redis.zrank(key, member);
                  return answer.map(rank -> new NumericResponse<>(command, rank));
                }));
  }

  /** ZRANGE or ZREVRANGE by index; without scores, each tuple's score is {@code NaN}. */
  @Override
  public Flux<CommandResponse<ZRangeCommand, Flux<Tuple>>> zRange(
      Publisher<ZRangeCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command -> {
                  byte[] key = bytes(command.getKey());
                  long start = firstIndex(command.getRange());
                  long stop = lastIndex(command.getRange());
                  Flux<Tuple> tuples;
                  if (command.getDirection() == Sort.Direction.DESC) {
                    CommandArgs<byte[], byte[]> arguments =
                        LeaderDispatch.arguments().addKey(key).add(start).add(stop);
                    tuples = ranged(key, CommandType.ZREVRANGE, arguments, command.isWithScores());
                  } else {
                    tuples =
                        command.isWithScores()
                            ? redis.zrangeWithScores(key, start, stop).map(this::tuple)
                            : redis.zrange(key, start, stop).map(this::unscored);
                  }
                  return new CommandResponse<>(command, translated(tuples));
                }));
  }

  /** ZRANGEBYSCORE or ZREVRANGEBYSCORE, with scores and LIMIT as the command asks. */
  @Override
  public Flux<CommandResponse<ZRangeByScoreCommand, Flux<Tuple>>> zRangeByScore(
      Publisher<ZRangeByScoreCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command -> {
                  byte[] key = bytes(command.getKey());
                  boolean descending = command.getDirection() == Sort.Direction.DESC;
                  String lowest = lowerScore(command.getRange());
                  String highest = upperScore(command.getRange());
                  CommandArgs<byte[], byte[]> arguments =
                      LeaderDispatch.arguments()
                          .addKey(key)
                          .add(descending ? highest : lowest)
                          .add(descending ? lowest : highest);
                  if (command.isWithScores()) {
                    arguments.add("WITHSCORES");
                  }
                  Limit limit = command.getLimit().orElse(null);
                  if (limit != null && limit.isLimited()) {
                    arguments.add("LIMIT").add(limit.getOffset()).add(limit.getCount());
                  }
                  Flux<Tuple> tuples =
                      ranged(
                          key,
                          descending ? CommandType.ZREVRANGEBYSCORE : CommandType.ZRANGEBYSCORE,
                          arguments,
                          command.isWithScores());
                  return new CommandResponse<>(command, translated(tuples));
                }));
  }

  private Flux<Tuple> ranged(
      byte[] key, CommandType type, CommandArgs<byte[], byte[]> arguments, boolean withScores) {
    if (withScores) {
      if (type == CommandType.ZREVRANGE) {
        arguments.add("WITHSCORES");
      }
      return redis
          .dispatch(key, type, new ScoredValueListOutput<>(ByteArrayCodec.INSTANCE), arguments)
          .flatMapIterable(values -> values)
          .map(this::tuple);
    }
    return redis
        .dispatch(key, type, new ValueListOutput<>(ByteArrayCodec.INSTANCE), arguments)
        .flatMapIterable(values -> values)
        .map(this::unscored);
  }

  @Override
  public Flux<NumericResponse<ZCountCommand, Long>> zCount(Publisher<ZCountCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  return redis
                      .dispatch(
                          key,
                          CommandType.ZCOUNT,
                          new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                          LeaderDispatch.arguments()
                              .addKey(key)
                              .add(lowerScore(command.getRange()))
                              .add(upperScore(command.getRange())))
                      .map(count -> new NumericResponse<>(command, count));
                }));
  }

  /** A score bound as Redis reads it: {@code -inf}, {@code 1.5} or exclusive {@code (1.5}. */
  static String lowerScore(Range<Double> range) {
    return scoreBound(range.getLowerBound(), "-inf");
  }

  /** A score bound as Redis reads it: {@code +inf}, {@code 1.5} or exclusive {@code (1.5}. */
  static String upperScore(Range<Double> range) {
    return scoreBound(range.getUpperBound(), "+inf");
  }

  private static String scoreBound(Range.Bound<Double> bound, String unbounded) {
    if (!bound.isBounded()) {
      return unbounded;
    }
    double score = bound.getValue().orElseThrow();
    String text = Double.isInfinite(score) ? (score > 0 ? "+inf" : "-inf") : Double.toString(score);
    return bound.isInclusive() ? text : "(" + text;
  }

  private Tuple tuple(ScoredValue<byte[]> scored) {
    return new DefaultTuple(scored.getValue(), scored.getScore());
  }

  private Tuple unscored(byte[] member) {
    return new DefaultTuple(member, Double.NaN);
  }
}
