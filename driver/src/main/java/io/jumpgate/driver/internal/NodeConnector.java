package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.spi.Node;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.MaintNotificationsConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens Lettuce connections to nodes, set up so that the router and not Lettuce decides what is
 * sent again:
 *
 * <ul>
 *   <li>{@code REJECT_COMMANDS} while disconnected: a command is never parked and sent later;
 *   <li>a replay filter that drops every command on reconnect: a command in flight when a
 *       connection breaks fails (its fate unknown) instead of being written again;
 *   <li>a bounded request queue;
 *   <li>per-command timeouts from the command's own deadline (retries share one deadline);
 *   <li>RESP2 and no maintenance notifications, so any RESP server works, not only Redis 7.2+.
 * </ul>
 *
 * <p>Thread-safe; one per client.
 */
public final class NodeConnector {

  private final RedisClient redisClient;
  private final JumpgateOptions options;

  public NodeConnector(ClientResources resources, JumpgateOptions options) {
    this.options = options;
    this.redisClient = RedisClient.create(resources);
    SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
    options.redisCaCertificate().ifPresent(ca -> ssl.trustManager(ca.toFile()));
    redisClient.setOptions(
        ClientOptions.builder()
            .autoReconnect(true)
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .replayFilter(command -> true)
            .requestQueueSize(options.requestQueueSize())
            .protocolVersion(ProtocolVersion.RESP2)
            .maintNotificationsConfig(MaintNotificationsConfig.disabled())
            .pingBeforeActivateConnection(false)
            .socketOptions(
                SocketOptions.builder()
                    .connectTimeout(options.connectTimeout())
                    .keepAlive(true)
                    .tcpNoDelay(true)
                    .build())
            .sslOptions(ssl.build())
            .timeoutOptions(
                TimeoutOptions.builder().timeoutSource(new DeadlineTimeoutSource(options)).build())
            .build());
  }

  /** Starts connecting to a node. */
  public CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connect(Node node) {
    RedisURI.Builder uri =
        RedisURI.builder()
            .withHost(node.host())
            .withPort(node.port())
            .withSsl(options.redisTls() || node.tls())
            .withTimeout(options.commandTimeout())
            .withLibraryName("")
            .withLibraryVersion("");
    if (options.redisPassword().isPresent()) {
      String password = options.redisPassword().get();
      if (options.redisUsername().isPresent()) {
        uri.withAuthentication(options.redisUsername().get(), password);
      } else {
        uri.withPassword(password.toCharArray());
      }
    }
    return redisClient.connectAsync(ByteArrayCodec.INSTANCE, uri.build()).toCompletableFuture();
  }

  /** Shuts down the Lettuce client; the resources are the caller's. */
  public CompletableFuture<Void> shutdownAsync() {
    return redisClient.shutdownAsync(0, 2, TimeUnit.SECONDS);
  }

  /** Per-command timeout: what is left of the command's deadline. */
  private static final class DeadlineTimeoutSource extends TimeoutOptions.TimeoutSource {
    private final long defaultNanos;

    DeadlineTimeoutSource(JumpgateOptions options) {
      this.defaultNanos = options.commandTimeout().toNanos();
    }

    @Override
    public long getTimeout(RedisCommand<?, ?, ?> command) {
      if (command instanceof HasDeadline timed) {
        return Math.max(1, timed.deadlineNanos() - System.nanoTime());
      }
      return defaultNanos;
    }

    @Override
    public TimeUnit getTimeUnit() {
      return TimeUnit.NANOSECONDS;
    }
  }
}
