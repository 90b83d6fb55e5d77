package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.buffer;
import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandType;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import org.reactivestreams.Publisher;
import org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive hash commands on the driver's reactive view, each sent when
 * subscribed to the hash key's shard: HSET (HSETNX for one field without upsert), HMGET, HEXISTS,
 * HDEL, HLEN, HKEYS, HVALS, HGETALL and HSTRLEN. An answer that is itself a {@code Flux} (HKEYS,
 * HVALS, HGETALL) sends its command when that inner {@code Flux} is subscribed, as Spring's Lettuce
 * connection does. Commands not listed here (HSCAN, HRANDFIELD, field expirations, ...) are refused
 * by {@link UnsupportedReactiveHashCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveHashCommands extends UnsupportedReactiveHashCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;

  RoutedReactiveHashCommands(JumpgateReactiveCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Flux<BooleanResponse<HSetCommand>> hSet(Publisher<HSetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  Map<ByteBuffer, ByteBuffer> fields = command.getFieldValueMap();
                  if (fields.size() == 1) {
                    Map.Entry<ByteBuffer, ByteBuffer> only = fields.entrySet().iterator().next();
                    byte[] field = bytes(only.getKey());
                    byte[] value = bytes(only.getValue());
                    Mono<Boolean> answer =
                        command.isUpsert()
                            ? redis.hset(key, field, value)
                            : redis.dispatch(
                                key,
                                CommandType.HSETNX,
                                new BooleanOutput<>(ByteArrayCodec.INSTANCE),
                                LeaderDispatch.arguments()
                                    .addKey(key)
                                    .addKey(field)
                                    .addValue(value));
                    return answer.map(set -> new BooleanResponse<>(command, set));
                  }
                  Map<byte[], byte[]> copies = new LinkedHashMap<>(fields.size() * 2);
                  fields.forEach((field, value) -> copies.put(bytes(field), bytes(value)));
                  return redis
                      .hset(key, copies)
                      .map(added -> new BooleanResponse<>(command, Boolean.TRUE));
                }));
  }

  @Override
  public Flux<MultiValueResponse<HGetCommand, ByteBuffer>> hMGet(Publisher<HGetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .hmget(bytes(command.getKey()), bytes(command.getFields()))
                        .collect(
                            () -> new ArrayList<ByteBuffer>(command.getFields().size()),
                            (values, answer) -> values.add(buffer(answer.getValueOrElse(null))))
                        .map(values -> new MultiValueResponse<>(command, values))));
  }

  @Override
  public Flux<BooleanResponse<HExistsCommand>> hExists(Publisher<HExistsCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .hexists(bytes(command.getKey()), bytes(command.getField()))
                        .map(exists -> new BooleanResponse<>(command, exists))));
  }

  @Override
  public Flux<NumericResponse<HDelCommand, Long>> hDel(Publisher<HDelCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .hdel(bytes(command.getKey()), bytes(command.getFields()))
                        .map(count -> new NumericResponse<>(command, count))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> hLen(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .hlen(bytes(command.getKey()))
                        .map(count -> new NumericResponse<>(command, count))));
  }

  @Override
  public Flux<CommandResponse<KeyCommand, Flux<ByteBuffer>>> hKeys(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command ->
                    new CommandResponse<>(
                        command,
                        translated(redis.hkeys(bytes(command.getKey())).map(ByteBuffer::wrap)))));
  }

  @Override
  public Flux<CommandResponse<KeyCommand, Flux<ByteBuffer>>> hVals(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command ->
                    new CommandResponse<>(
                        command,
                        translated(redis.hvals(bytes(command.getKey())).map(ByteBuffer::wrap)))));
  }

  @Override
  public Flux<CommandResponse<KeyCommand, Flux<Map.Entry<ByteBuffer, ByteBuffer>>>> hGetAll(
      Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .map(
                command ->
                    new CommandResponse<>(
                        command,
                        translated(
                            redis
                                .hgetall(bytes(command.getKey()))
                                .flatMapIterable(Map::entrySet)
                                .map(
                                    entry ->
                                        (Map.Entry<ByteBuffer, ByteBuffer>)
                                            new AbstractMap.SimpleImmutableEntry<>(
                                                ByteBuffer.wrap(entry.getKey()),
                                                ByteBuffer.wrap(entry.getValue())))))));
  }

  @Override
  public Flux<NumericResponse<HStrLenCommand, Long>> hStrLen(Publisher<HStrLenCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  return redis
                      .dispatch(
                          key,
                          CommandType.HSTRLEN,
                          new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                          LeaderDispatch.arguments().addKey(key).addKey(bytes(command.getField())))
                      .map(length -> new NumericResponse<>(command, length));
                }));
  }
}
