// Generated once from Spring Data Redis 4.1.1's ReactiveScriptingCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveScriptingCommands} answered with an error
 * ({@link org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing
 * sent: the base of the routed reactive implementation, so that a command Jumpgate does not route
 * yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveScriptingCommands
    implements org.springframework.data.redis.connection.ReactiveScriptingCommands {

  @Override
  public <T> reactor.core.publisher.Flux<T> eval(
      java.nio.ByteBuffer script,
      org.springframework.data.redis.connection.ReturnType returnType,
      int numKeys,
      java.nio.ByteBuffer... keysAndArgs) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("EVAL"));
  }

  @Override
  public <T> reactor.core.publisher.Flux<T> evalSha(
      java.lang.String scriptSha,
      org.springframework.data.redis.connection.ReturnType returnType,
      int numKeys,
      java.nio.ByteBuffer... keysAndArgs) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("EVALSHA"));
  }

  @Override
  public reactor.core.publisher.Flux<java.lang.Boolean> scriptExists(
      java.util.List<java.lang.String> scriptShas) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("SCRIPT EXISTS"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> scriptFlush() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("SCRIPT FLUSH"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> scriptKill() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("SCRIPT KILL"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> scriptLoad(java.nio.ByteBuffer script) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("SCRIPT LOAD"));
  }
}
