package io.jumpgate.migration.internal;

import io.jumpgate.migration.MigrationException;
import io.jumpgate.migration.ServerAddress;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.MaintNotificationsConfig;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The engine's Lettuce client and connections: no automatic reconnect (a dropped subscription must
 * be seen, and a dropped data connection fails the phase), commands rejected while disconnected,
 * RESP2, a command timeout on every command.
 *
 * <p>Thread-safe for opening; {@link #close()} closes every connection it opened, then the client,
 * then its resources, each bounded.
 */
public final class ServerConnections implements AutoCloseable {

  private final ClientResources resources;
  private final RedisClient client;
  private final Duration connectTimeout;
  private final Duration commandTimeout;
  private final List<StatefulConnection<?, ?>> opened = new ArrayList<>();

  public ServerConnections(Duration connectTimeout, Duration commandTimeout, int requestQueueSize) {
    this.connectTimeout = connectTimeout;
    this.commandTimeout = commandTimeout;
    this.resources =
        DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
    this.client = RedisClient.create(resources);
    client.setOptions(
        ClientOptions.builder()
            .autoReconnect(false)
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .requestQueueSize(requestQueueSize)
            .protocolVersion(ProtocolVersion.RESP2)
            .maintNotificationsConfig(MaintNotificationsConfig.disabled())
            .pingBeforeActivateConnection(false)
            .socketOptions(
                SocketOptions.builder()
                    .connectTimeout(connectTimeout)
                    .keepAlive(true)
                    .tcpNoDelay(true)
                    .build())
            .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
            .build());
  }

  public StatefulRedisConnection<byte[], byte[]> connect(ServerAddress server, String purpose) {
    StatefulRedisConnection<byte[], byte[]> connection =
        Await.result(
            client.connectAsync(ByteArrayCodec.INSTANCE, uri(server)),
            connectTimeout,
            "connecting to " + server + " (" + purpose + ")");
    remember(connection);
    return connection;
  }

  /**
   * A pub/sub connection; {@code onDisconnected} runs (on a Netty thread) when it drops without
   * {@link #close()} having been called.
   */
  public StatefulRedisPubSubConnection<byte[], byte[]> connectPubSub(
      ServerAddress server, Runnable onDisconnected) {
    StatefulRedisPubSubConnection<byte[], byte[]> connection =
        Await.result(
            client.connectPubSubAsync(ByteArrayCodec.INSTANCE, uri(server)),
            connectTimeout,
            "connecting to " + server + " (change capture)");
    remember(connection);
    Consumer<RedisChannelHandler<?, ?>> check =
        handler -> {
          if (handler == connection && !isClosing()) {
            onDisconnected.run();
          }
        };
    client.addListener(
        new RedisConnectionStateListener() {
          @Override
          public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
            check.accept(handler);
          }
        });
    if (!connection.isOpen()) {
      onDisconnected.run();
    }
    return connection;
  }

  private volatile boolean closing;

  private boolean isClosing() {
    return closing;
  }

  private synchronized void remember(StatefulConnection<?, ?> connection) {
    opened.add(connection);
  }

  /**
   * The server's URI. The credentials are a {@link StaticCredentialsProvider}, never the builder's
   * {@code withAuthentication}/{@code withPassword}: those give Lettuce (7.7) a provider that is
   * not "immediate", so its handshake continues on another thread, and the connect future can
   * complete before the connection is marked active: the first command is then rejected as "not
   * connected".
   */
  RedisURI uri(ServerAddress server) {
    RedisURI uri =
        RedisURI.builder()
            .withHost(server.host())
            .withPort(server.port())
            .withTimeout(commandTimeout)
            .withLibraryName("")
            .withLibraryVersion("")
            .build();
    if (server.password().isPresent()) {
      uri.setCredentialsProvider(
          new StaticCredentialsProvider(
              server.username().orElse(null), server.password().get().toCharArray()));
    }
    return uri;
  }

  @Override
  public void close() {
    closing = true;
    List<StatefulConnection<?, ?>> connections;
    synchronized (this) {
      connections = new ArrayList<>(opened);
      opened.clear();
    }
    for (StatefulConnection<?, ?> connection : connections) {
      try {
        Await.result(connection.closeAsync(), connectTimeout, "closing a connection");
      } catch (MigrationException e) {
        // Closing is best effort; the client's shutdown below closes what is left.
      }
    }
    try {
      client
          .shutdownAsync(0, connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
          .get(connectTimeout.toMillis() * 2, TimeUnit.MILLISECONDS);
      resources
          .shutdown(0, connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
          .get(connectTimeout.toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // Best effort: threads of a resource that would not stop are daemon threads.
    }
  }
}
