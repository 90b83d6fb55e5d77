package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.bytes;
import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import org.reactivestreams.Publisher;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.connection.ExpirationOptions;
import org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand;
import org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse;
import org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse;
import org.springframework.data.redis.core.KeyScanOptions;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.types.Expiration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive key commands on the driver's reactive view, each sent when
 * subscribed: single-key commands to the key's shard; DEL, UNLINK, EXISTS and TOUCH of several keys
 * split over the nodes and their counts summed by the driver; KEYS and SCAN over every leader;
 * RENAME, RENAMENX and COPY only when both keys share one shard (else an error naming the shards,
 * nothing sent). Commands not listed here are refused by {@link UnsupportedReactiveKeyCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveKeyCommands extends UnsupportedReactiveKeyCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;
  private final OneShardRule oneShard;

  RoutedReactiveKeyCommands(JumpgateReactiveCommands<byte[], byte[]> redis, OneShardRule oneShard) {
    this.redis = redis;
    this.oneShard = oneShard;
  }

  @Override
  public Mono<Long> exists(List<ByteBuffer> keys) {
    return translated(Mono.defer(() -> redis.exists(bytes(keys))));
  }

  @Override
  public Flux<BooleanResponse<KeyCommand>> exists(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .exists(bytes(command.getKey()))
                        .map(count -> new BooleanResponse<>(command, count > 0))));
  }

  @Override
  public Flux<CommandResponse<KeyCommand, DataType>> type(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .type(bytes(command.getKey()))
                        .map(code -> new CommandResponse<>(command, DataType.fromCode(code)))));
  }

  @Override
  public Flux<NumericResponse<Collection<ByteBuffer>, Long>> touch(
      Publisher<Collection<ByteBuffer>> keyCollections) {
    return translated(
        Flux.from(keyCollections)
            .concatMap(
                keys -> redis.touch(bytes(keys)).map(count -> new NumericResponse<>(keys, count))));
  }

  @Override
  public Flux<MultiValueResponse<ByteBuffer, ByteBuffer>> keys(Publisher<ByteBuffer> patterns) {
    return translated(
        Flux.from(patterns)
            .concatMap(
                pattern ->
                    redis
                        .keys(bytes(pattern))
                        .map(ReactiveConversions::buffer)
                        .collectList()
                        .map(keys -> new MultiValueResponse<>(pattern, keys))));
  }

  /**
   * The driver's cluster SCAN, leader after leader, page after page as the subscriber asks: every
   * key the leaders hold from start to end once, while the map does not change.
   */
  @Override
  public Flux<ByteBuffer> scan(ScanOptions options) {
    ScanArgs arguments = scanArguments(options);
    Mono<KeyScanCursor<byte[]>> first = Mono.defer(() -> redis.scan(arguments));
    return translated(
        first
            .expand(
                page ->
                    page.isFinished()
                        ? Mono.empty()
                        : redis.scan(ScanCursor.of(page.getCursor()), arguments))
            .concatMapIterable(KeyScanCursor::getKeys)
            .map(ByteBuffer::wrap));
  }

  private static ScanArgs scanArguments(ScanOptions options) {
    KeyScanArgs arguments = new KeyScanArgs();
    if (options == null) {
      return arguments;
    }
    byte[] pattern = options.getBytePattern();
    if (pattern != null) {
      arguments.match(pattern);
    }
    if (options.getCount() != null) {
      arguments.limit(options.getCount());
    }
    if (options instanceof KeyScanOptions keyOptions && keyOptions.getType() != null) {
      arguments.type(keyOptions.getType());
    }
    return arguments;
  }

  @Override
  public Flux<BooleanResponse<RenameCommand>> rename(Publisher<RenameCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    twoKeyCommand(
                            CommandType.RENAME,
                            new StatusOutput<>(ByteArrayCodec.INSTANCE),
                            bytes(command.getKey()),
                            bytes(command.getNewKey()),
                            false)
                        .map(status -> new BooleanResponse<>(command, "OK".equals(status)))));
  }

  @Override
  public Flux<BooleanResponse<RenameCommand>> renameNX(Publisher<RenameCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    twoKeyCommand(
                            CommandType.RENAMENX,
                            new BooleanOutput<>(ByteArrayCodec.INSTANCE),
                            bytes(command.getKey()),
                            bytes(command.getNewKey()),
                            false)
                        .map(renamed -> new BooleanResponse<>(command, renamed))));
  }

  @Override
  public Flux<BooleanResponse<CopyCommand>> copy(Publisher<CopyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command -> {
                  if (command.getDatabase() != null && command.getDatabase() != 0) {
                    return Mono.error(ReactiveRefusals.unsupported("COPY to another database"));
                  }
                  return twoKeyCommand(
                          CommandType.COPY,
                          new BooleanOutput<>(ByteArrayCodec.INSTANCE),
                          bytes(command.getKey()),
                          bytes(command.getTarget()),
                          command.isReplace())
                      .map(copied -> new BooleanResponse<>(command, copied));
                }));
  }

  /**
   * A command of two keys, to their shard's leader when they share one; else an error naming the
   * shards, checked when subscribed, before anything is sent.
   */
  private <T> Mono<T> twoKeyCommand(
      CommandType type,
      io.lettuce.core.output.CommandOutput<byte[], byte[], T> output,
      byte[] first,
      byte[] second,
      boolean replace) {
    return Mono.defer(
        () -> {
          oneShard.requireOneShard(type.name(), first, second);
          CommandArgs<byte[], byte[]> arguments =
              LeaderDispatch.arguments().addKey(first).addKey(second);
          if (replace) {
            arguments.add("REPLACE");
          }
          return redis.dispatch(first, type, output, arguments);
        });
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> del(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .del(bytes(command.getKey()))
                        .map(count -> new NumericResponse<>(command, count))));
  }

  @Override
  public Flux<NumericResponse<List<ByteBuffer>, Long>> mDel(
      Publisher<List<ByteBuffer>> keyCollections) {
    return translated(
        Flux.from(keyCollections)
            .concatMap(
                keys -> redis.del(bytes(keys)).map(count -> new NumericResponse<>(keys, count))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> unlink(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .unlink(bytes(command.getKey()))
                        .map(count -> new NumericResponse<>(command, count))));
  }

  @Override
  public Flux<NumericResponse<List<ByteBuffer>, Long>> mUnlink(
      Publisher<List<ByteBuffer>> keyCollections) {
    return translated(
        Flux.from(keyCollections)
            .concatMap(
                keys ->
                    redis.unlink(bytes(keys)).map(count -> new NumericResponse<>(keys, count))));
  }

  /**
   * EXPIRE, PEXPIRE, EXPIREAT or PEXPIREAT as the expiration says (PERSIST for a persistent one),
   * with NX/XX/GT/LT when the options ask.
   */
  @Override
  public Flux<BooleanResponse<ExpireCommand>> applyExpiration(Publisher<ExpireCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    expiration(
                            bytes(command.getKey()), command.getExpiration(), command.getOptions())
                        .map(applied -> new BooleanResponse<>(command, applied))));
  }

  private Mono<Boolean> expiration(byte[] key, Expiration expiration, ExpirationOptions options) {
    if (expiration.isPersistent()) {
      return redis.persist(key);
    }
    ExpirationOptions.Condition condition = options == null ? null : options.getCondition();
    boolean unconditional = condition == null || condition == ExpirationOptions.Condition.ALWAYS;
    if (expiration.isUnixTimestamp()) {
      return expiration.isPrecise()
          ? expireWithCondition(
              CommandType.PEXPIREAT, key, expiration.getExpirationTimeInMilliseconds(), condition)
          : unconditional
              ? redis.expireat(key, expiration.getExpirationTimeInSeconds())
              : expireWithCondition(
                  CommandType.EXPIREAT, key, expiration.getExpirationTimeInSeconds(), condition);
    }
    if (expiration.isPrecise()) {
      return unconditional
          ? redis.pexpire(key, expiration.getExpirationTimeInMilliseconds())
          : expireWithCondition(
              CommandType.PEXPIRE, key, expiration.getExpirationTimeInMilliseconds(), condition);
    }
    return unconditional
        ? redis.expire(key, expiration.getExpirationTimeInSeconds())
        : expireWithCondition(
            CommandType.EXPIRE, key, expiration.getExpirationTimeInSeconds(), condition);
  }

  private Mono<Boolean> expireWithCondition(
      CommandType type, byte[] key, long time, ExpirationOptions.Condition condition) {
    CommandArgs<byte[], byte[]> arguments = LeaderDispatch.arguments().addKey(key).add(time);
    if (condition != null && condition != ExpirationOptions.Condition.ALWAYS) {
      arguments.add(condition.name());
    }
    return redis.dispatch(key, type, new BooleanOutput<>(ByteArrayCodec.INSTANCE), arguments);
  }

  @Override
  public Flux<BooleanResponse<ExpireAtCommand>> expireAt(Publisher<ExpireAtCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    expireWithCondition(
                            CommandType.EXPIREAT,
                            bytes(command.getKey()),
                            command.getExpireAt().getEpochSecond(),
                            command.getOptions() == null
                                ? null
                                : command.getOptions().getCondition())
                        .map(applied -> new BooleanResponse<>(command, applied))));
  }

  @Override
  public Flux<BooleanResponse<ExpireAtCommand>> pExpireAt(Publisher<ExpireAtCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    expireWithCondition(
                            CommandType.PEXPIREAT,
                            bytes(command.getKey()),
                            command.getExpireAt().toEpochMilli(),
                            command.getOptions() == null
                                ? null
                                : command.getOptions().getCondition())
                        .map(applied -> new BooleanResponse<>(command, applied))));
  }

  @Override
  public Flux<BooleanResponse<KeyCommand>> persist(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .persist(bytes(command.getKey()))
                        .map(persisted -> new BooleanResponse<>(command, persisted))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> ttl(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .ttl(bytes(command.getKey()))
                        .map(seconds -> new NumericResponse<>(command, seconds))));
  }

  @Override
  public Flux<NumericResponse<KeyCommand, Long>> pTtl(Publisher<KeyCommand> commands) {
    return translated(
        Flux.from(commands)
            .concatMap(
                command ->
                    redis
                        .pttl(bytes(command.getKey()))
                        .map(milliseconds -> new NumericResponse<>(command, milliseconds))));
  }
}
