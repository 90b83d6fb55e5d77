// Generated once from Spring Data Redis 4.1.1's ReactiveNumberCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveNumberCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveNumberCommands
    implements org.springframework.data.redis.connection.ReactiveNumberCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      decr(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("DECR"));
  }

  @Override
  public <T extends java.lang.Number>
      reactor.core.publisher.Flux<
              org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
                  org.springframework.data.redis.connection.ReactiveNumberCommands.DecrByCommand<T>,
                  T>>
          decrBy(
              org.reactivestreams.Publisher<
                      org.springframework.data.redis.connection.ReactiveNumberCommands
                              .DecrByCommand<
                          T>>
                  commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("DECRBY"));
  }

  @Override
  public <T extends java.lang.Number>
      reactor.core.publisher.Flux<
              org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
                  org.springframework.data.redis.connection.ReactiveNumberCommands.HIncrByCommand<
                      T>,
                  T>>
          hIncrBy(
              org.reactivestreams.Publisher<
                      org.springframework.data.redis.connection.ReactiveNumberCommands
                              .HIncrByCommand<
                          T>>
                  commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("HINCRBY"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      incr(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              keys) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("INCR"));
  }

  @Override
  public <T extends java.lang.Number>
      reactor.core.publisher.Flux<
              org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
                  org.springframework.data.redis.connection.ReactiveNumberCommands.IncrByCommand<T>,
                  T>>
          incrBy(
              org.reactivestreams.Publisher<
                      org.springframework.data.redis.connection.ReactiveNumberCommands
                              .IncrByCommand<
                          T>>
                  commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("INCRBY"));
  }
}
