package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.CommandType;
import java.nio.ByteBuffer;
import org.reactivestreams.Publisher;
import org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import reactor.core.publisher.Flux;

/**
 * Spring Data Redis's reactive set commands on the driver's reactive view, each sent when
 * subscribed to the set key's shard: SADD, SREM, SPOP (one member), SCARD, SISMEMBER and SMEMBERS.
 * Commands not listed here, the commands of several sets (SMOVE, SINTER, SUNION, SDIFF and their
 * STORE forms) among them in this version, are refused by {@link UnsupportedReactiveSetCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveSetCommands extends UnsupportedReactiveSetCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;

  RoutedReactiveSetCommands(JumpgateReactiveCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Flux<NumericResponse<SAddCommand, Long>> sAdd(Publisher<SAddCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .sadd(bytes(command.getKey()), bytes(command.getValues()))
                        .map(added -> new NumericResponse<>(command, added))));
  }

  @Override
  public Flux<NumericResponse<SRemCommand, Long>> sRem(Publisher<SRemCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .srem(bytes(command.getKey()), bytes(command.getValues()))
                        .map(removed -> new NumericResponse<>(command, removed))));
  }

  @Override
  public Flux<ByteBufferResponse<KeyCommand>> sPop(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  return redis
                      .dispatch(
                          key,
                          CommandType.SPOP,
                          new ValueOutput<>(ByteArrayCodec.INSTANCE),
                          LeaderDispatch.arguments().addKey(key))
                      .map(member -> new ByteBufferResponse<>(command, ByteBuffer.wrap(member)));
                }));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> sCard(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .scard(bytes(command.getKey()))
                        .map(count -> new NumericResponse<>(command, count))));
  }

  @Override
  public Flux<BooleanResponse<SIsMemberCommand>> sIsMember(Publisher<SIsMemberCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .sismember(bytes(command.getKey()), bytes(command.getValue()))
                        .map(member -> new BooleanResponse<>(command, member))));
  }

  @Override
  public Flux<CommandResponse<KeyCommand, Flux<ByteBuffer>>> sMembers(
      Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command ->
                    new CommandResponse<>(
                        command,
                        translated(
                            redis.smembers(bytes(command.getKey())).map(ByteBuffer::wrap)))));
  }
}
