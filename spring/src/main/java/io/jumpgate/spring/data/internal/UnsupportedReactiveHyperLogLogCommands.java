// Generated once from Spring Data Redis 4.1.1's ReactiveHyperLogLogCommands (one refusing method
// per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveHyperLogLogCommands} answered with an error
 * ({@link org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing
 * sent: the base of the routed reactive implementation, so that a command Jumpgate does not route
 * yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveHyperLogLogCommands
    implements org.springframework.data.redis.connection.ReactiveHyperLogLogCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHyperLogLogCommands.PfAddCommand,
              java.lang.Long>>
      pfAdd(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHyperLogLogCommands
                      .PfAddCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PFADD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveHyperLogLogCommands.PfCountCommand,
              java.lang.Long>>
      pfCount(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHyperLogLogCommands
                      .PfCountCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PFCOUNT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.BooleanResponse<
              org.springframework.data.redis.connection.ReactiveHyperLogLogCommands.PfMergeCommand>>
      pfMerge(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveHyperLogLogCommands
                      .PfMergeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PFMERGE"));
  }
}
