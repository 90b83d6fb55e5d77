package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.buffer;
import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.SetArgs;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.reactivestreams.Publisher;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.ReactiveRedisConnection.AbsentByteBufferResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.types.Expiration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive string commands on the driver's reactive view, each sent when
 * subscribed: single-key commands to the key's shard with the driver's retries and read policy;
 * MGET and MSET split over the nodes and merged in request order by the driver (MSET is not atomic
 * across nodes); MSETNX only when its keys share one shard. Commands not listed here (the bit
 * commands) are refused by {@link UnsupportedReactiveStringCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveStringCommands extends UnsupportedReactiveStringCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;
  private final OneShardRule oneShard;

  RoutedReactiveStringCommands(
      JumpgateReactiveCommands<byte[], byte[]> redis, OneShardRule oneShard) {
    this.redis = redis;
    this.oneShard = oneShard;
  }

  @Override
  public Flux<ByteBufferResponse<KeyCommand>> get(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(command -> valueOf(command, redis.get(bytes(command.getKey())))));
  }

  @Override
  public Flux<ByteBufferResponse<KeyCommand>> getDel(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(command -> valueOf(command, redis.getdel(bytes(command.getKey())))));
  }

  @Override
  public Flux<ByteBufferResponse<GetExCommand>> getEx(Publisher<GetExCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    valueOf(
                        command,
                        redis.getex(
                            bytes(command.getKey()),
                            Expirations.getExArguments(command.getExpiration())))));
  }

  @Override
  public Flux<ByteBufferResponse<SetCommand>> getSet(Publisher<SetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  if (command.getExpiration().filter(given -> !given.isPersistent()).isPresent()
                      || command
                          .getCondition()
                          .filter(
                              given -> given.getKeyCondition() != SetCondition.KeyCondition.UPSERT)
                          .isPresent()) {
                    return Mono.error(
                        new InvalidDataAccessApiUsageException(
                            "GETSET takes no expiration and no condition (nothing was sent)"));
                  }
                  return valueOf(
                      command, redis.getset(bytes(command.getKey()), bytes(command.getValue())));
                }));
  }

  /** The answer as Spring's response; a missing key as an absent response, as Lettuce's do. */
  private static <I> Mono<ByteBufferResponse<I>> valueOf(I command, Mono<byte[]> answer) {
    return answer
        .map(value -> new ByteBufferResponse<>(command, ByteBuffer.wrap(value)))
        .defaultIfEmpty(new AbsentByteBufferResponse<>(command));
  }

  @Override
  public Flux<MultiValueResponse<List<ByteBuffer>, ByteBuffer>> mGet(
      Publisher<List<ByteBuffer>> keyCollections) {
    return translated(
        Flux.from(keyCollections)
            .concatMap(
                keys ->
                    redis
                        .mget(bytes(keys))
                        .collect(
                            () -> new ArrayList<ByteBuffer>(keys.size()),
                            (values, answer) -> values.add(buffer(answer.getValueOrElse(null))))
                        .map(values -> new MultiValueResponse<>(keys, values))));
  }

  @Override
  public Flux<BooleanResponse<SetCommand>> set(Publisher<SetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  byte[] value = bytes(command.getValue());
                  Mono<String> answer =
                      command.getExpiration().isEmpty() && command.getCondition().isEmpty()
                          ? redis.set(key, value)
                          : Mono.defer(() -> redis.set(key, value, setArguments(command)));
                  return answer
                      .map(status -> new BooleanResponse<>(command, "OK".equals(status)))
                      .defaultIfEmpty(new BooleanResponse<>(command, Boolean.FALSE));
                }));
  }

  @Override
  public Flux<ByteBufferResponse<SetCommand>> setGet(Publisher<SetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  byte[] key = bytes(command.getKey());
                  byte[] value = bytes(command.getValue());
                  Mono<byte[]> answer =
                      command.getExpiration().isEmpty() && command.getCondition().isEmpty()
                          ? redis.setGet(key, value)
                          : Mono.defer(() -> redis.setGet(key, value, setArguments(command)));
                  return valueOf(command, answer);
                }));
  }

  private static SetArgs setArguments(SetCommand command) {
    return Expirations.setArguments(
        "SET", command.getCondition().orElse(null), command.getExpiration().orElse(null));
  }

  @Override
  public Flux<BooleanResponse<SetCommand>> setNX(Publisher<SetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .setnx(bytes(command.getKey()), bytes(command.getValue()))
                        .map(set -> new BooleanResponse<>(command, set))));
  }

  @Override
  public Flux<BooleanResponse<SetCommand>> setEX(Publisher<SetCommand> commands) {
    return setWithExpiration(commands, "SETEX", false);
  }

  @Override
  public Flux<BooleanResponse<SetCommand>> pSetEX(Publisher<SetCommand> commands) {
    return setWithExpiration(commands, "PSETEX", true);
  }

  private Flux<BooleanResponse<SetCommand>> setWithExpiration(
      Publisher<SetCommand> commands, String name, boolean milliseconds) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  Expiration expiration = command.getExpiration().orElse(null);
                  if (expiration == null || expiration.isPersistent()) {
                    return Mono.error(
                        new InvalidDataAccessApiUsageException(
                            name + " needs an expiration (nothing was sent)"));
                  }
                  SetArgs arguments =
                      milliseconds
                          ? new SetArgs().px(expiration.getExpirationTimeInMilliseconds())
                          : new SetArgs().ex(expiration.getExpirationTimeInSeconds());
                  return redis
                      .set(bytes(command.getKey()), bytes(command.getValue()), arguments)
                      .map(status -> new BooleanResponse<>(command, "OK".equals(status)));
                }));
  }

  @Override
  public Flux<BooleanResponse<MSetCommand>> mSet(Publisher<MSetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    Mono.defer(() -> redis.mset(pairs(command.getKeyValuePairs())))
                        .map(status -> new BooleanResponse<>(command, "OK".equals(status)))));
  }

  @Override
  public Flux<BooleanResponse<MSetCommand>> mSetNX(Publisher<MSetCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    Mono.defer(
                            () -> {
                              Map<byte[], byte[]> pairs = pairs(command.getKeyValuePairs());
                              byte[][] keys = pairs.keySet().toArray(new byte[0][]);
                              oneShard.requireOneShard("MSETNX", keys);
                              CommandArgs<byte[], byte[]> arguments = LeaderDispatch.arguments();
                              pairs.forEach((key, value) -> arguments.addKey(key).addValue(value));
                              return redis.dispatch(
                                  keys[0],
                                  CommandType.MSETNX,
                                  new BooleanOutput<>(ByteArrayCodec.INSTANCE),
                                  arguments);
                            })
                        .map(set -> new BooleanResponse<>(command, set))));
  }

  private static Map<byte[], byte[]> pairs(Map<ByteBuffer, ByteBuffer> pairs) {
    Map<byte[], byte[]> copies = new LinkedHashMap<>(pairs.size() * 2);
    pairs.forEach((key, value) -> copies.put(bytes(key), bytes(value)));
    return copies;
  }

  @Override
  public Flux<NumericResponse<AppendCommand, Long>> append(Publisher<AppendCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .append(bytes(command.getKey()), bytes(command.getValue()))
                        .map(length -> new NumericResponse<>(command, length))));
  }

  @Override
  public Flux<ByteBufferResponse<RangeCommand>> getRange(Publisher<RangeCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  long start = ReactiveConversions.firstIndex(command.getRange());
                  long end = ReactiveConversions.lastIndex(command.getRange());
                  return valueOf(command, redis.getrange(bytes(command.getKey()), start, end));
                }));
  }

  @Override
  public Flux<NumericResponse<SetRangeCommand, Long>> setRange(
      Publisher<SetRangeCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .setrange(
                            bytes(command.getKey()), command.getOffset(), bytes(command.getValue()))
                        .map(length -> new NumericResponse<>(command, length))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> strLen(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .strlen(bytes(command.getKey()))
                        .map(length -> new NumericResponse<>(command, length))));
  }
}
