// Generated once from Spring Data Redis 4.1.1's ReactiveSetCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveSetCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveSetCommands
    implements org.springframework.data.redis.connection.ReactiveSetCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SAddCommand,
              java.lang.Long>>
      sAdd(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SAddCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SADD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      sCard(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SCARD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SDiffCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      sDiff(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SDiffCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SDIFF"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SDiffStoreCommand,
              java.lang.Long>>
      sDiffStore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SDiffStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SDIFFSTORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SInterCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      sInter(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SInterCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SINTER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SInterCardCommand,
              java.lang.Long>>
      sInterCard(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SInterCardCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SINTERCARD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SInterStoreCommand,
              java.lang.Long>>
      sInterStore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SInterStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SINTERSTORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SIsMemberCommand>>
      sIsMember(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SIsMemberCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SISMEMBER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SMIsMemberCommand,
              java.lang.Boolean>>
      sMIsMember(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SMIsMemberCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SMISMEMBER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      sMembers(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SMEMBERS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SMoveCommand>>
      sMove(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SMoveCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SMOVE"));
  }

  @Override
  public reactor.core.publisher.Flux<java.nio.ByteBuffer> sPop(
      org.springframework.data.redis.connection.ReactiveSetCommands.SPopCommand command) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SPOP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.ByteBufferResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>>
      sPop(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SPOP"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SRandMembersCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      sRandMember(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SRandMembersCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SRANDMEMBER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SRemCommand,
              java.lang.Long>>
      sRem(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SRemCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SREM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      sScan(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyScanCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SSCAN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SUnionCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      sUnion(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SUnionCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SUNION"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveSetCommands.SUnionStoreCommand,
              java.lang.Long>>
      sUnionStore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveSetCommands.SUnionStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SUNIONSTORE"));
  }
}
