// Generated once from Spring Data Redis 4.1.1's ReactiveHashCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveHashCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveHashCommands
    implements org.springframework.data.redis.connection.ReactiveHashCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HashExpireCommand,
              java.lang.Long>>
      applyHashFieldExpiration(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HashExpireCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HEXPIRE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HDelCommand,
              java.lang.Long>>
      hDel(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HDelCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HDEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HExistsCommand>>
      hExists(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HExistsCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HEXISTS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<
                  java.util.Map.Entry<java.nio.ByteBuffer, java.nio.ByteBuffer>>>>
      hGetAll(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HGETALL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HGetDelCommand,
              java.nio.ByteBuffer>>
      hGetDel(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HGetDelCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HGETDEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HGetExCommand,
              java.nio.ByteBuffer>>
      hGetEx(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HGetExCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HGETEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      hKeys(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HKEYS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      hLen(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HLEN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HGetCommand,
              java.nio.ByteBuffer>>
      hMGet(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HGetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HMGET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HashFieldsCommand,
              java.lang.Long>>
      hPersist(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HashFieldsCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HPERSIST"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HRandFieldCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      hRandField(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HRandFieldCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HRANDFIELD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HRandFieldCommand,
              reactor.core.publisher.Flux<
                  java.util.Map.Entry<java.nio.ByteBuffer, java.nio.ByteBuffer>>>>
      hRandFieldWithValues(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HRandFieldCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HRANDFIELD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<
                  java.util.Map.Entry<java.nio.ByteBuffer, java.nio.ByteBuffer>>>>
      hScan(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyScanCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HSCAN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HSetCommand>>
      hSet(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HSetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HSET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HSetExCommand>>
      hSetEx(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HSetExCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HSETEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HStrLenCommand,
              java.lang.Long>>
      hStrLen(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HStrLenCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HSTRLEN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HashFieldsCommand,
              java.lang.Long>>
      hTtl(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HashFieldsCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HTTL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      hVals(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HVALS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHashCommands.HashFieldsCommand,
              java.lang.Long>>
      hpTtl(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHashCommands.HashFieldsCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HPTTL"));
  }
}
