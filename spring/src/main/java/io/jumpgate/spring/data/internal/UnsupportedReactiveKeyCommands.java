// Generated once from Spring Data Redis 4.1.1's ReactiveKeyCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveKeyCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveKeyCommands
    implements org.springframework.data.redis.connection.ReactiveKeyCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.ExpireCommand>>
      applyExpiration(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.ExpireCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("EXPIRE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.CopyCommand>>
      copy(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.CopyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("COPY"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      del(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("DEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.DelexCommand>>
      delex(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.DelexCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("DELEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.String>>
      digest(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("DIGEST"));
  }

  @Override
  public reactor.core.publisher.Mono<org.springframework.data.redis.connection.ValueEncoding>
      encodingOf(java.nio.ByteBuffer key) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("OBJECT ENCODING"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>>
      exists(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("EXISTS"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Long> exists(
      java.util.List<java.nio.ByteBuffer> keys) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("EXISTS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.ExpireAtCommand>>
      expireAt(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.ExpireAtCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("EXPIREAT"));
  }

  @Override
  public reactor.core.publisher.Mono<java.time.Duration> idletime(java.nio.ByteBuffer key) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("OBJECT IDLETIME"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              java.nio.ByteBuffer, java.nio.ByteBuffer>>
      keys(org.reactivestreams.Publisher<java.nio.ByteBuffer> patterns) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("KEYS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              java.util.List<java.nio.ByteBuffer>, java.lang.Long>>
      mDel(org.reactivestreams.Publisher<java.util.List<java.nio.ByteBuffer>> keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("DEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              java.util.List<java.nio.ByteBuffer>, java.lang.Long>>
      mUnlink(org.reactivestreams.Publisher<java.util.List<java.nio.ByteBuffer>> keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("UNLINK"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.MoveCommand>>
      move(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.MoveCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("MOVE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.ExpireAtCommand>>
      pExpireAt(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.ExpireAtCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PEXPIREAT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      pTtl(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PTTL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>>
      persist(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PERSIST"));
  }

  @Override
  public reactor.core.publisher.Mono<java.nio.ByteBuffer> randomKey() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("RANDOMKEY"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Long> refcount(java.nio.ByteBuffer key) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("OBJECT REFCOUNT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.RenameCommand>>
      rename(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.RenameCommand>
              command) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("RENAME"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveKeyCommands.RenameCommand>>
      renameNX(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveKeyCommands.RenameCommand>
              command) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("RENAMENX"));
  }

  @Override
  public reactor.core.publisher.Flux<java.nio.ByteBuffer> scan(
      org.springframework.data.redis.core.ScanOptions options) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SCAN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              java.util.Collection<java.nio.ByteBuffer>, java.lang.Long>>
      touch(org.reactivestreams.Publisher<java.util.Collection<java.nio.ByteBuffer>> keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("TOUCH"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      ttl(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("TTL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              org.springframework.data.redis.connection.DataType>>
      type(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("TYPE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      unlink(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("UNLINK"));
  }
}
