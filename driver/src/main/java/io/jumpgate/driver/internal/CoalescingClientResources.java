package io.jumpgate.driver.internal;

import io.lettuce.core.event.EventBus;
import io.lettuce.core.event.EventPublisherOptions;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.NettyCustomizer;
import io.lettuce.core.resource.SocketAddressResolver;
import io.lettuce.core.tracing.Tracing;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.Timer;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The Lettuce resources of the driver's node connections when write coalescing is on: the given
 * resources (event loops, timers, everything shared), with a Netty customizer that runs theirs and
 * then puts a {@link WriteCoalescingHandler} at the head of each new channel's pipeline. Only the
 * connections opened with this object get the handler: other Lettuce clients that share the given
 * resources keep their own pipelines. ({@code ClientResources.mutate()} is not used: in Lettuce 7.7
 * it does not carry the event loop provider over, so it would make a second set of event loops.)
 *
 * <p>Never shuts the given resources down: {@link #shutdown} is refused, their owner shuts them
 * down (a {@code RedisClient} made with resources it was given never calls it). Thread-safe.
 */
final class CoalescingClientResources implements ClientResources {

  private final ClientResources delegate;
  private final NettyCustomizer customizer;

  CoalescingClientResources(ClientResources delegate) {
    this.delegate = delegate;
    NettyCustomizer theirs = delegate.nettyCustomizer();
    this.customizer =
        new NettyCustomizer() {
          @Override
          public void afterBootstrapInitialized(Bootstrap bootstrap) {
            theirs.afterBootstrapInitialized(bootstrap);
          }

          @Override
          public void afterChannelInitialized(Channel channel) {
            theirs.afterChannelInitialized(channel);
            channel.pipeline().addFirst(WriteCoalescingHandler.NAME, new WriteCoalescingHandler());
          }
        };
  }

  @Override
  public NettyCustomizer nettyCustomizer() {
    return customizer;
  }

  @Override
  public Builder mutate() {
    return delegate.mutate();
  }

  @Override
  public Future<Boolean> shutdown() {
    throw new UnsupportedOperationException(
        "the node connections' resources are shut down by their owner");
  }

  @Override
  public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit timeUnit) {
    return shutdown();
  }

  @Override
  public AddressResolverGroup<?> addressResolverGroup() {
    return delegate.addressResolverGroup();
  }

  @Override
  public EventPublisherOptions commandLatencyPublisherOptions() {
    return delegate.commandLatencyPublisherOptions();
  }

  @Override
  public CommandLatencyRecorder commandLatencyRecorder() {
    return delegate.commandLatencyRecorder();
  }

  @Override
  public int computationThreadPoolSize() {
    return delegate.computationThreadPoolSize();
  }

  @Override
  public EventBus eventBus() {
    return delegate.eventBus();
  }

  @Override
  public EventLoopGroupProvider eventLoopGroupProvider() {
    return delegate.eventLoopGroupProvider();
  }

  @Override
  public EventExecutorGroup eventExecutorGroup() {
    return delegate.eventExecutorGroup();
  }

  @Override
  public int ioThreadPoolSize() {
    return delegate.ioThreadPoolSize();
  }

  @Override
  public Delay reconnectDelay() {
    return delegate.reconnectDelay();
  }

  @Override
  public SocketAddressResolver socketAddressResolver() {
    return delegate.socketAddressResolver();
  }

  @Override
  public Timer timer() {
    return delegate.timer();
  }

  @Override
  public Tracing tracing() {
    return delegate.tracing();
  }
}
