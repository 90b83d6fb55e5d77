package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.firstIndex;
import static io.jumpgate.spring.data.internal.ReactiveConversions.lastIndex;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.ByteBuffer;
import org.reactivestreams.Publisher;
import org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive list commands on the driver's reactive view, each sent when
 * subscribed to the list key's shard: LPUSH/RPUSH (LPUSHX/RPUSHX without upsert), LLEN, LRANGE,
 * LTRIM, LINDEX, LSET, LREM and LPOP/RPOP (with a count too). Commands not listed here (blocking
 * pops, LMOVE, LPOS, LINSERT, ...) are refused by {@link UnsupportedReactiveListCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveListCommands extends UnsupportedReactiveListCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;

  RoutedReactiveListCommands(JumpgateReactiveCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Flux<NumericResponse<PushCommand, Long>> push(Publisher<PushCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  byte[][] values = bytes(command.getValues());
                  boolean right = command.getDirection() == Direction.RIGHT;
                  Mono<Long> answer;
                  if (command.getUpsert()) {
                    answer = right ? redis.rpush(key, values) : redis.lpush(key, values);
                  } else {
                    CommandArgs<byte[], byte[]> arguments =
                        LeaderDispatch.arguments().addKey(key).addValues(values);
                    answer =
                        redis.dispatch(
                            key,
                            right ? CommandType.RPUSHX : CommandType.LPUSHX,
                            new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                            arguments);
                  }
                  return answer.map(length -> new NumericResponse<>(command, length));
                }));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> lLen(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .llen(bytes(command.getKey()))
                        .map(length -> new NumericResponse<>(command, length))));
  }

  @Override
  public Flux<CommandResponse<RangeCommand, Flux<ByteBuffer>>> lRange(
      Publisher<RangeCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command ->
                    new CommandResponse<>(
                        command,
                        translated(
                            redis
                                .lrange(
                                    bytes(command.getKey()),
                                    firstIndex(command.getRange()),
                                    lastIndex(command.getRange()))
                                .map(ByteBuffer::wrap)))));
  }

  @Override
  public Flux<BooleanResponse<RangeCommand>> lTrim(Publisher<RangeCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  return redis
                      .dispatch(
                          key,
                          CommandType.LTRIM,
                          new StatusOutput<>(ByteArrayCodec.INSTANCE),
                          LeaderDispatch.arguments()
                              .addKey(key)
                              .add(firstIndex(command.getRange()))
                              .add(lastIndex(command.getRange())))
                      .map(status -> new BooleanResponse<>(command, "OK".equals(status)));
                }));
  }

  @Override
  public Flux<ByteBufferResponse<LIndexCommand>> lIndex(Publisher<LIndexCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .lindex(bytes(command.getKey()), command.getIndex())
                        .map(value -> new ByteBufferResponse<>(command, ByteBuffer.wrap(value)))));
  }

  @Override
  public Flux<BooleanResponse<LSetCommand>> lSet(Publisher<LSetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  return redis
                      .dispatch(
                          key,
                          CommandType.LSET,
                          new StatusOutput<>(ByteArrayCodec.INSTANCE),
                          LeaderDispatch.arguments()
                              .addKey(key)
                              .add(command.getIndex())
                              .addValue(bytes(command.getValue())))
                      .map(status -> new BooleanResponse<>(command, "OK".equals(status)));
                }));
  }

  @Override
  public Flux<NumericResponse<LRemCommand, Long>> lRem(Publisher<LRemCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  return redis
                      .dispatch(
                          key,
                          CommandType.LREM,
                          new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                          LeaderDispatch.arguments()
                              .addKey(key)
                              .add(command.getCount())
                              .addValue(bytes(command.getValue())))
                      .map(count -> new NumericResponse<>(command, count));
                }));
  }

  @Override
  public Flux<ByteBufferResponse<PopCommand>> pop(Publisher<PopCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  Mono<byte[]> answer =
                      command.getDirection() == Direction.RIGHT ? redis.rpop(key) : redis.lpop(key);
                  return answer.map(
                      value -> new ByteBufferResponse<>(command, ByteBuffer.wrap(value)));
                }));
  }

  @Override
  public Flux<CommandResponse<PopCommand, Flux<ByteBuffer>>> popList(
      Publisher<PopCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command -> {
                  byte[] key = bytes(command.getKey());
                  Flux<byte[]> answer =
                      command.getDirection() == Direction.RIGHT
                          ? redis.rpop(key, command.getCount())
                          : redis.lpop(key, command.getCount());
                  return new CommandResponse<>(command, translated(answer.map(ByteBuffer::wrap)));
                }));
  }
}
