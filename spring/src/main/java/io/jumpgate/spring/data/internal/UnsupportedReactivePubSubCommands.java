// Generated once from Spring Data Redis 4.1.1's ReactivePubSubCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactivePubSubCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactivePubSubCommands
    implements org.springframework.data.redis.connection.ReactivePubSubCommands {

  @Override
  public reactor.core.publisher.Mono<org.springframework.data.redis.connection.ReactiveSubscription>
      createSubscription(
          org.springframework.data.redis.connection.SubscriptionListener subscriptionListener) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("SUBSCRIBE"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Void> pSubscribe(java.nio.ByteBuffer... patterns) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("PSUBSCRIBE"));
  }

  @Override
  public reactor.core.publisher.Flux<java.lang.Long> publish(
      org.reactivestreams.Publisher<
              org.springframework.data.redis.connection.ReactiveSubscription.ChannelMessage<
                  java.nio.ByteBuffer, java.nio.ByteBuffer>>
          messageStream) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("PUBLISH"));
  }

  @Override
  public reactor.core.publisher.Mono<java.lang.Void> subscribe(java.nio.ByteBuffer... channels) {
    return reactor.core.publisher.Mono.error(ReactiveRefusals.unsupported("SUBSCRIBE"));
  }
}
