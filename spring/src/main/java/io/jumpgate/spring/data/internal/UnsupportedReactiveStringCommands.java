// Generated once from Spring Data Redis 4.1.1's ReactiveStringCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveStringCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveStringCommands
    implements org.springframework.data.redis.connection.ReactiveStringCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.AppendCommand,
              java.lang.Long>>
      append(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.AppendCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("APPEND"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.BitCountCommand,
              java.lang.Long>>
      bitCount(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.BitCountCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BITCOUNT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.BitFieldCommand,
              java.lang.Long>>
      bitField(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.BitFieldCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BITFIELD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.BitOpCommand,
              java.lang.Long>>
      bitOp(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.BitOpCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BITOP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.BitPosCommand,
              java.lang.Long>>
      bitPos(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.BitPosCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BITPOS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>>
      get(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.GetBitCommand>>
      getBit(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.GetBitCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GETBIT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>>
      getDel(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GETDEL"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.GetExCommand>>
      getEx(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.GetExCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GETEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand>>
      getRange(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.RangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GETRANGE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>>
      getSet(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GETSET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              java.util.List<java.nio.ByteBuffer>, java.nio.ByteBuffer>>
      mGet(org.reactivestreams.Publisher<java.util.List<java.nio.ByteBuffer>> keysets) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("MGET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.MSetCommand>>
      mSet(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.MSetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("MSET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.MSetCommand>>
      mSetNX(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.MSetCommand>
              source) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("MSETNX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>>
      pSetEX(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PSETEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>>
      set(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetBitCommand>>
      setBit(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetBitCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SETBIT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>>
      setEX(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SETEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>>
      setGet(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SETGET"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>>
      setNX(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetCommand>
              values) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SETNX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveStringCommands.SetRangeCommand,
              java.lang.Long>>
      setRange(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveStringCommands.SetRangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SETRANGE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      strLen(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("STRLEN"));
  }
}
