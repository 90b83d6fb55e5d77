// Generated once from Spring Data Redis 4.1.1's ReactiveListCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveListCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveListCommands
    implements org.springframework.data.redis.connection.ReactiveListCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.BLMoveCommand>>
      bLMove(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.BLMoveCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BLMOVE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveListCommands.PopResponse>
      bPop(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.BPopCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BLPOP/BRPOP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.BRPopLPushCommand>>
      bRPopLPush(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.BRPopLPushCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BRPOPLPUSH"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.LIndexCommand>>
      lIndex(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.LIndexCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LINDEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.LInsertCommand,
              java.lang.Long>>
      lInsert(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.LInsertCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LINSERT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      lLen(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LLEN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.LMoveCommand>>
      lMove(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveListCommands.LMoveCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LMOVE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.LPosCommand,
              java.lang.Long>>
      lPos(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.LPosCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LPOS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      lRange(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LRANGE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.LRemCommand,
              java.lang.Long>>
      lRem(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.LRemCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LREM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.LSetCommand>>
      lSet(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.LSetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LSET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand>>
      lTrim(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LTRIM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.PopCommand>>
      pop(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.PopCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LPOP/RPOP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.PopCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      popList(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.PopCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LPOP/RPOP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.PushCommand,
              java.lang.Long>>
      push(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.PushCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("LPUSH/RPUSH"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveListCommands.RPopLPushCommand>>
      rPopLPush(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveListCommands.RPopLPushCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("RPOPLPUSH"));
  }
}
