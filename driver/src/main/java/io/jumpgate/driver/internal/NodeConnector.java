package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NettyTransport;
import io.jumpgate.spi.Node;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.MaintNotificationsConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *   <li>RESP2 and no maintenance notifications, so any RESP server works, not only Redis 7.2+;
 *   <li>TLS (the JDK's provider) with the options' CA and client certificate, and a handshake
 *       bounded by the connect timeout;
 *   <li>with {@link JumpgateOptions#writeCoalescing()}, a {@link WriteCoalescingHandler} at the
 *       head of every connection's pipeline.
 * </ul>
 *
 * <p>It logs (INFO) once which Netty transport the connections use ({@link NettyTransport}) and
 * whether write coalescing is on.
 *
 * <p>Connects start on two daemon threads of the connector's ({@code jumpgate-connect-N}), never on
 * the caller's: every {@code connect} method returns at once.
 *
 * <p>Thread-safe; one per client.
 */
public final class NodeConnector implements ConnectionOpener {

  private static final Logger LOG = LoggerFactory.getLogger(NodeConnector.class);

  private final RedisClient redisClient;
  private final JumpgateOptions options;
  private final String connectionName;

  /**
   * Where connects start (see {@link #onConnectThread}): two daemon threads, made on demand and
   * ended after {@link #CONNECT_THREAD_IDLE_SECONDS} idle, so that one slow start does not hold up
   * the next node's.
   */
  private final ThreadPoolExecutor connectStarts;

  private static final int CONNECT_THREADS = 2;
  private static final long CONNECT_THREAD_IDLE_SECONDS = 10;
  private static final AtomicInteger CONNECT_THREAD_NUMBERS = new AtomicInteger();

  public NodeConnector(ClientResources resources, JumpgateOptions options) {
    this(resources, options, null);
  }

  /**
   * @param connectionName the name every connection gets ({@code CLIENT SETNAME} in the handshake),
   *     {@code jumpgate:<client-id>}; null for none
   */
  public NodeConnector(ClientResources resources, JumpgateOptions options, String connectionName) {
    this.options = options;
    this.connectionName = connectionName;
    this.connectStarts =
        new ThreadPoolExecutor(
            CONNECT_THREADS,
            CONNECT_THREADS,
            CONNECT_THREAD_IDLE_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread =
                  new Thread(task, "jumpgate-connect-" + CONNECT_THREAD_NUMBERS.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    connectStarts.allowCoreThreadTimeOut(true);
    this.redisClient =
        RedisClient.create(
            options.writeCoalescing() ? new CoalescingClientResources(resources) : resources);
    LOG.info(
        "node connections: Netty transport {}, write coalescing {}",
        NettyTransport.current(),
        options.writeCoalescing() ? "on" : "off");
    SslOptions.Builder ssl =
        SslOptions.builder()
            .jdkSslProvider()
            // Lettuce's default is 10 s: a handshake is part of connecting.
            .handshakeTimeout(options.connectTimeout());
    try {
      options.redisCaCertificate().ifPresent(ca -> ssl.trustManager(ca.toFile()));
      if (options.redisClientCertificate().isPresent()) {
        ssl.keyManager(
            options.redisClientCertificate().get().toFile(),
            options.redisClientKey().orElseThrow().toFile(),
            null);
      }
    } catch (IllegalArgumentException e) {
      // Lettuce checks that the files exist; it reads them each time it opens a connection.
      throw new IllegalArgumentException("redis TLS files: " + e.getMessage(), e);
    }
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

  /** Starts connecting to a node, on a connect thread: returns at once. */
  @Override
  public CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connect(Node node) {
    return connect(node, ByteArrayCodec.INSTANCE);
  }

  /**
   * Starts connecting to a node with a codec of the caller's, set up as every node connection, on a
   * connect thread: returns at once.
   */
  public <K, V> CompletableFuture<StatefulRedisConnection<K, V>> connect(
      Node node, RedisCodec<K, V> codec) {
    return onConnectThread(
        node, () -> redisClient.connectAsync(codec, uri(node)).toCompletableFuture());
  }

  /**
   * Starts a publish/subscribe connection to a node, set up as every node connection, on a connect
   * thread: returns at once.
   */
  public <K, V> CompletableFuture<StatefulRedisPubSubConnection<K, V>> connectPubSub(
      Node node, RedisCodec<K, V> codec) {
    return onConnectThread(
        node, () -> redisClient.connectPubSubAsync(codec, uri(node)).toCompletableFuture());
  }

  /**
   * Lettuce's {@code connectAsync} does part of its work on its caller's thread: the first connect
   * of a JVM loads and initialises Netty's and Lettuce's connection classes there, which took
   * longer than a command's deadline on a loaded machine. Its callers are an application thread
   * whose command has a deadline, or the scheduler thread whose timers end other commands at
   * theirs; neither may wait for that, so the call runs here.
   */
  private <C> CompletableFuture<C> onConnectThread(
      Node node, Supplier<CompletableFuture<C>> connectAsync) {
    CompletableFuture<C> connecting = new CompletableFuture<>();
    try {
      connectStarts.execute(
          () -> {
            try {
              named(node, connectAsync.get()).whenComplete(NodeConnector.completing(connecting));
            } catch (RuntimeException e) {
              connecting.completeExceptionally(
                  new RedisConnectionException(
                      connectFailure(node, options.redisTls() || node.tls(), e), e));
            }
          });
    } catch (RejectedExecutionException e) {
      connecting.completeExceptionally(
          new RedisConnectionException(
              "not connecting to node " + node.id() + " (" + node.address() + "): client closed",
              e));
    }
    return connecting;
  }

  private static <C> BiConsumer<C, Throwable> completing(CompletableFuture<C> target) {
    return (value, error) -> {
      if (error != null) {
        target.completeExceptionally(error);
      } else {
        target.complete(value);
      }
    };
  }

  private <C> CompletableFuture<C> named(Node node, CompletableFuture<C> connecting) {
    boolean tls = options.redisTls() || node.tls();
    return connecting.handle(
        (connection, error) -> {
          if (error != null) {
            throw new RedisConnectionException(connectFailure(node, tls, error), error);
          }
          return connection;
        });
  }

  /**
   * The node's URI. The credentials are a {@link StaticCredentialsProvider}, never the builder's
   * {@code withAuthentication}/{@code withPassword}: those give Lettuce (7.7) a provider that is
   * not "immediate", so its handshake continues on another thread, and the connect future can
   * complete before the connection is marked active: the first command is then rejected as "not
   * connected".
   */
  RedisURI uri(Node node) {
    RedisURI.Builder builder =
        RedisURI.builder()
            .withHost(node.host())
            .withPort(node.port())
            .withSsl(options.redisTls() || node.tls())
            // Bounds the connection's own handshake (AUTH): part of connecting. Commands get what
            // is left of their deadline from the timeout source.
            .withTimeout(options.connectTimeout())
            .withLibraryName("")
            .withLibraryVersion("");
    if (connectionName != null) {
      builder.withClientName(connectionName);
    }
    RedisURI uri = builder.build();
    if (options.redisPassword().isPresent()) {
      uri.setCredentialsProvider(
          new StaticCredentialsProvider(
              options.redisUsername().orElse(null), options.redisPassword().get().toCharArray()));
    }
    return uri;
  }

  /**
   * Why connecting to a node failed, in words that say what to fix: Lettuce's own message only
   * names the address ("Unable to connect to host:port"). Never holds a password: it is built from
   * the node, the TLS flag and the server's or TLS stack's own words.
   */
  static String connectFailure(Node node, boolean tls, Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String words = root.getMessage() == null ? "" : root.getMessage();
    String lower = words.toLowerCase(Locale.ROOT);
    String reason;
    if (lower.startsWith("wrongpass") || lower.startsWith("noauth")) {
      reason = "the node refused the credentials (redis username and password)";
    } else if (lower.contains("pkix") || lower.contains("certification path")) {
      reason = "the node's certificate is not signed by a trusted CA (redis CA certificate)";
    } else if (lower.contains("unknown_ca")
        || lower.contains("bad_certificate")
        || lower.contains("certificate_required")
        || lower.contains("handshake_failure")) {
      reason = "the node refused the client certificate, or wants one (redis client certificate)";
    } else if (lower.contains("no subject alternative") || lower.contains("no name matching")) {
      reason = "the node's certificate does not name its host";
    } else {
      reason = "";
    }
    String prefix =
        "cannot connect to node "
            + node.id()
            + " ("
            + node.address()
            + (tls ? ", TLS" : "")
            + "): ";
    if (root instanceof RedisCommandExecutionException && !reason.isEmpty()) {
      // The server's own answer stays in the cause, where callers look for it.
      return prefix + reason;
    }
    return prefix
        + (reason.isEmpty() ? "" : reason + ": ")
        + root.getClass().getSimpleName()
        + (words.isEmpty() ? "" : ": " + words);
  }

  /** Shuts down the Lettuce client; the resources are the caller's. */
  public CompletableFuture<Void> shutdownAsync() {
    connectStarts.shutdown();
    return redisClient.shutdownAsync(0, 2, TimeUnit.SECONDS);
  }

  /**
   * Per-command timeout: what is left of the command's deadline; none (0: Lettuce arms no timer)
   * for a try whose blocked caller watches the deadline itself.
   */
  private static final class DeadlineTimeoutSource extends TimeoutOptions.TimeoutSource {
    private final long defaultNanos;

    DeadlineTimeoutSource(JumpgateOptions options) {
      this.defaultNanos = options.commandTimeout().toNanos();
    }

    @Override
    public long getTimeout(RedisCommand<?, ?, ?> command) {
      if (command instanceof HasDeadline timed) {
        if (timed.deadlineWatchedByCaller()) {
          return 0; // no timer: the blocked caller ends the try at the deadline (Views)
        }
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
