// Generated once from Spring Data Redis 4.1.1's ReactiveStreamCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveStreamCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveStreamCommands
    implements org.springframework.data.redis.connection.ReactiveStreamCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.ReadCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.ByteBufferRecord>>>
      read(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.ReadCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XREAD/XREADGROUP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.AcknowledgeCommand,
              java.lang.Long>>
      xAck(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands
                      .AcknowledgeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XACK"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands
                  .AcknowledgeDeleteCommand,
              java.util.List<
                  org.springframework.data.redis.connection.RedisStreamCommands
                      .StreamEntryDeletionResult>>>
      xAckDel(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands
                      .AcknowledgeDeleteCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XACKDEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.AddStreamRecord,
              org.springframework.data.redis.connection.stream.RecordId>>
      xAdd(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.AddStreamRecord>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XADD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.XClaimCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.ByteBufferRecord>>>
      xClaim(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.XClaimCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XCLAIM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.XClaimCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.RecordId>>>
      xClaimJustId(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.XClaimCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XCLAIM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.DeleteCommand,
              java.lang.Long>>
      xDel(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.DeleteCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XDEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.DeleteExCommand,
              java.util.List<
                  org.springframework.data.redis.connection.RedisStreamCommands
                      .StreamEntryDeletionResult>>>
      xDelEx(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.DeleteExCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XDELEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.GroupCommand,
              java.lang.String>>
      xGroup(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.GroupCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XGROUP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.XInfoCommand,
              org.springframework.data.redis.connection.stream.StreamInfo.XInfoStream>>
      xInfo(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.XInfoCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XINFO STREAM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.XInfoCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.StreamInfo.XInfoConsumer>>>
      xInfoConsumers(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.XInfoCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XINFO CONSUMERS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.XInfoCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.StreamInfo.XInfoGroup>>>
      xInfoGroups(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.XInfoCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XINFO GROUPS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      xLen(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XLEN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands
                  .PendingRecordsCommand,
              org.springframework.data.redis.connection.stream.PendingMessages>>
      xPending(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands
                      .PendingRecordsCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XPENDING"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands
                  .PendingRecordsCommand,
              org.springframework.data.redis.connection.stream.PendingMessagesSummary>>
      xPendingSummary(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands
                      .PendingRecordsCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XPENDING"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.RangeCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.ByteBufferRecord>>>
      xRange(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.RangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XRANGE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveStreamCommands.RangeCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.redis.connection.stream.ByteBufferRecord>>>
      xRevRange(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.RangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XREVRANGE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      xTrim(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStreamCommands.TrimCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("XTRIM"));
  }
}
