// Generated once from Spring Data Redis 4.1.1's ReactiveServerCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveServerCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveServerCommands
    implements org.springframework.data.redis.connection.ReactiveServerCommands {

  @Override
  public reactor.core.publisher.Mono<java.lang.String> bgReWriteAof() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("BGREWRITEAOF"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> bgSave() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("BGSAVE"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Long> dbSize() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("DBSIZE"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> flushAll() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("FLUSHALL"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> flushAll(
      org.springframework.data.redis.connection.RedisServerCommands.FlushOption option) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("FLUSHALL"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> flushDb() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("FLUSHDB"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> flushDb(
      org.springframework.data.redis.connection.RedisServerCommands.FlushOption option) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("FLUSHDB"));
  }

  @Override
  public reactor.core.publisher.Flux<org.springframework.data.redis.core.types.RedisClientInfo>
      getClientList() {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("CLIENT LIST"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> getClientName() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("CLIENT GETNAME"));
  }

  @Override
  public reactor.core.publisher.Mono<java.util.Properties> getConfig(java.lang.String pattern) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("CONFIG GET"));
  }

  @Override
  public reactor.core.publisher.Mono<java.util.Properties> info() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("INFO"));
  }

  @Override
  public reactor.core.publisher.Mono<java.util.Properties> info(java.lang.String section) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("INFO"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> killClient(java.lang.String host, int port) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("CLIENT KILL"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Long> lastSave() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("LASTSAVE"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> resetConfigStats() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("CONFIG RESETSTAT"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> save() {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("SAVE"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> setClientName(java.lang.String name) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("CLIENT SETNAME"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.String> setConfig(
      java.lang.String param, java.lang.String value) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("CONFIG SET"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Long> time(java.util.concurrent.TimeUnit timeUnit) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("TIME"));
  }
}
