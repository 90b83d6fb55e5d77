package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.protocol.CommandType;
import org.reactivestreams.Publisher;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import org.springframework.util.NumberUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive number commands on the driver's reactive view, each sent when
 * subscribed to the key's shard: INCR, INCRBY and INCRBYFLOAT (a {@code Double} or {@code Float}
 * step), DECR, DECRBY (INCRBYFLOAT of the negated step for a floating one), HINCRBY and
 * HINCRBYFLOAT. The answer has the step's number type, as Spring's Lettuce connection gives it.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveNumberCommands extends UnsupportedReactiveNumberCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;

  RoutedReactiveNumberCommands(JumpgateReactiveCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> incr(Publisher<KeyCommand> keys) {
    return translated(
        Flux.from(keys)
            .concatMap(
                command ->
                    redis
                        .incr(bytes(command.getKey()))
                        .map(value -> new NumericResponse<>(command, value))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> decr(Publisher<KeyCommand> keys) {
    return translated(
        Flux.from(keys)
            .concatMap(
                command ->
                    redis
                        .decr(bytes(command.getKey()))
                        .map(value -> new NumericResponse<>(command, value))));
  }

  @Override
  public <T extends Number> Flux<NumericResponse<IncrByCommand<T>, T>> incrBy(
      Publisher<IncrByCommand<T>> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  T step = command.getValue();
                  byte[] key = bytes(command.getKey());
                  Mono<? extends Number> answer =
                      floating(step)
                          ? redis.incrbyfloat(key, step.doubleValue())
                          : redis.incrby(key, step.longValue());
                  return answer.map(value -> new NumericResponse<>(command, as(value, step)));
                }));
  }

  @Override
  public <T extends Number> Flux<NumericResponse<DecrByCommand<T>, T>> decrBy(
      Publisher<DecrByCommand<T>> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  T step = command.getValue();
                  byte[] key = bytes(command.getKey());
                  Mono<? extends Number> answer =
                      floating(step)
                          ? redis.incrbyfloat(key, -step.doubleValue())
                          : redis.decrby(key, step.longValue());
                  return answer.map(value -> new NumericResponse<>(command, as(value, step)));
                }));
  }

  @Override
  public <T extends Number> Flux<NumericResponse<HIncrByCommand<T>, T>> hIncrBy(
      Publisher<HIncrByCommand<T>> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  T step = command.getValue();
                  byte[] key = bytes(command.getKey());
                  byte[] field = bytes(command.getField());
                  Mono<? extends Number> answer =
                      floating(step)
                          ? redis.dispatch(
                              key,
                              CommandType.HINCRBYFLOAT,
                              new DoubleOutput<>(ByteArrayCodec.INSTANCE),
                              LeaderDispatch.arguments()
                                  .addKey(key)
                                  .addKey(field)
                                  .add(step.doubleValue()))
                          : redis.hincrby(key, field, step.longValue());
                  return answer.map(value -> new NumericResponse<>(command, as(value, step)));
                }));
  }

  private static boolean floating(Number step) {
    return step instanceof Double || step instanceof Float;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Number> T as(Number value, T step) {
    return (T) NumberUtils.convertNumberToTargetClass(value, step.getClass());
  }
}
