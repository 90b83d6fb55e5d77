package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.DefaultMessage;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.connection.util.AbstractSubscription;

/**
 * A subscription whose channels are routed like keys: a channel is hashed as a key is (its hash
 * tag, if any) and subscribed on the leader of its shard, where {@code PUBLISH} to that channel
 * goes too; a pattern may match channels of any shard, so it is subscribed on every leader. One
 * publish/subscribe connection per leader used ({@link JumpgateClient#connectPubSubToNode}), opened
 * when first needed; messages and subscription confirmations go to the listener (a {@link
 * SubscriptionListener} hears each leader's confirmation), on the connections' Netty threads.
 * Subscribing waits for the leaders' answers, except on a Netty thread, where it never blocks.
 *
 * <p>Subscriptions stay on the leaders of the map when they were made: after a leader change or a
 * migration, subscribe again (docs/spring.md). Thread-safe: the container adds channels from other
 * threads than the one waiting in {@link #awaitClosed()}.
 */
final class RoutedSubscription extends AbstractSubscription {

  private final JumpgateClient client;
  private final OneShardRule oneShard;
  private static final Log LOG = LogFactory.getLog(RoutedSubscription.class);

  private final Map<String, CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>>>
      connections = new ConcurrentHashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final RedisPubSubListener<byte[], byte[]> relay;

  RoutedSubscription(JumpgateClient client, OneShardRule oneShard, MessageListener listener) {
    super(listener);
    this.client = client;
    this.oneShard = oneShard;
    this.relay = new Relay(listener);
  }

  /** Blocks until the subscription is closed (as Spring's blocking subscribers expect). */
  void awaitClosed() {
    try {
      closed.await();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      close();
    }
  }

  @Override
  protected void doSubscribe(byte[]... channels) {
    List<CompletableFuture<?>> sent = new ArrayList<>();
    byChannelLeader(channels)
        .forEach(
            (leader, group) ->
                sent.add(connection(leader).thenCompose(c -> c.async().subscribe(group))));
    await(sent, "SUBSCRIBE");
  }

  @Override
  protected void doUnsubscribe(boolean all, byte[]... channels) {
    List<CompletableFuture<?>> sent = new ArrayList<>();
    if (all) {
      connections
          .values()
          .forEach(c -> sent.add(c.thenCompose(open -> open.async().unsubscribe())));
    } else {
      byChannelLeader(channels)
          .forEach(
              (leader, group) ->
                  sent.add(connection(leader).thenCompose(c -> c.async().unsubscribe(group))));
    }
    await(sent, "UNSUBSCRIBE");
  }

  @Override
  protected void doPsubscribe(byte[]... patterns) {
    List<CompletableFuture<?>> sent = new ArrayList<>();
    for (Node leader : leaders()) {
      sent.add(connection(leader).thenCompose(c -> c.async().psubscribe(patterns)));
    }
    await(sent, "PSUBSCRIBE");
  }

  @Override
  protected void doPUnsubscribe(boolean all, byte[]... patterns) {
    List<CompletableFuture<?>> sent = new ArrayList<>();
    for (CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> connection :
        connections.values()) {
      sent.add(
          connection.thenCompose(
              c -> all ? c.async().punsubscribe() : c.async().punsubscribe(patterns)));
    }
    await(sent, "PUNSUBSCRIBE");
  }

  @Override
  protected void doClose() {
    try {
      for (CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> connection :
          connections.values()) {
        connection.thenAccept(StatefulRedisPubSubConnection::closeAsync);
      }
      connections.clear();
    } finally {
      closed.countDown();
    }
  }

  /**
   * Waits for the commands' answers and throws the first failure, at most the connect timeout plus
   * the command timeout; on a Netty thread (Spring's container adds channels from the listener's
   * subscription callbacks, which run there) it never waits: a failure is logged.
   */
  private void await(List<CompletableFuture<?>> sent, String command) {
    CompletableFuture<Void> all =
        CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0]));
    if (Thread.currentThread() instanceof FastThreadLocalThread) {
      all.whenComplete(
          (done, failure) -> {
            if (failure != null) {
              LOG.warn(command + " failed on a Jumpgate subscription connection", failure);
            }
          });
      return;
    }
    Duration wait = client.options().connectTimeout().plus(client.options().commandTimeout());
    try {
      all.get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new RedisConnectionFailureException("interrupted during " + command);
    } catch (TimeoutException late) {
      throw new QueryTimeoutException(command + " got no answer within " + wait);
    } catch (ExecutionException failed) {
      Throwable cause = failed.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw ExceptionTranslation.translate(runtime);
      }
      throw new RedisConnectionFailureException(command + " failed", cause);
    }
  }

  private Map<Node, byte[][]> byChannelLeader(byte[][] channels) {
    Map<Node, List<byte[]>> groups = new LinkedHashMap<>();
    for (byte[] channel : channels) {
      int shard = oneShard.requireOneShard("SUBSCRIBE", channel);
      groups.computeIfAbsent(leaderOf(shard), leader -> new ArrayList<>()).add(channel);
    }
    Map<Node, byte[][]> arrays = new LinkedHashMap<>();
    groups.forEach((leader, group) -> arrays.put(leader, group.toArray(new byte[0][])));
    return arrays;
  }

  private List<Node> leaders() {
    TopologySnapshot map = client.topology();
    Map<String, Node> leaders = new LinkedHashMap<>();
    for (int shard = 0; shard < map.shardCount(); shard++) {
      Node leader = leaderOf(shard);
      leaders.putIfAbsent(leader.id(), leader);
    }
    return List.copyOf(leaders.values());
  }

  private Node leaderOf(int shard) {
    ShardRoute route = client.topology().route(shard);
    if (route == null || route.leader() == null) {
      throw new RedisConnectionFailureException(
          "shard " + shard + " has no leader to subscribe on (nothing was subscribed)");
    }
    return route.leader();
  }

  private CompletableFuture<StatefulRedisPubSubConnection<byte[], byte[]>> connection(Node leader) {
    return connections.computeIfAbsent(
        leader.id(),
        id ->
            client
                .connectPubSubToNode(leader, ByteArrayCodec.INSTANCE)
                .toCompletableFuture()
                .thenApply(
                    connection -> {
                      connection.addListener(relay);
                      return connection;
                    }));
  }

  /** Hands Lettuce's events to Spring's listener. */
  private static final class Relay implements RedisPubSubListener<byte[], byte[]> {
    private final MessageListener listener;

    Relay(MessageListener listener) {
      this.listener = listener;
    }

    @Override
    public void message(byte[] channel, byte[] message) {
      listener.onMessage(new DefaultMessage(channel, message), null);
    }

    @Override
    public void message(byte[] pattern, byte[] channel, byte[] message) {
      listener.onMessage(new DefaultMessage(channel, message), pattern);
    }

    @Override
    public void subscribed(byte[] channel, long count) {
      if (listener instanceof SubscriptionListener subscriptions) {
        subscriptions.onChannelSubscribed(channel, count);
      }
    }

    @Override
    public void psubscribed(byte[] pattern, long count) {
      if (listener instanceof SubscriptionListener subscriptions) {
        subscriptions.onPatternSubscribed(pattern, count);
      }
    }

    @Override
    public void unsubscribed(byte[] channel, long count) {
      if (listener instanceof SubscriptionListener subscriptions) {
        subscriptions.onChannelUnsubscribed(channel, count);
      }
    }

    @Override
    public void punsubscribed(byte[] pattern, long count) {
      if (listener instanceof SubscriptionListener subscriptions) {
        subscriptions.onPatternUnsubscribed(pattern, count);
      }
    }
  }
}
