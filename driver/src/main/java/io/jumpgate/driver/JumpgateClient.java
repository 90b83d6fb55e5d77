package io.jumpgate.driver;

import io.jumpgate.driver.internal.AsyncCommands;
import io.jumpgate.driver.internal.CallerStack;
import io.jumpgate.driver.internal.ClientRegistration;
import io.jumpgate.driver.internal.CommandExecutor;
import io.jumpgate.driver.internal.Dispatcher;
import io.jumpgate.driver.internal.DriverMetrics;
import io.jumpgate.driver.internal.KeyRouter;
import io.jumpgate.driver.internal.MicrometerMetrics;
import io.jumpgate.driver.internal.NodeConnector;
import io.jumpgate.driver.internal.Views;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Jumpgate driver: reads the shard map from its topology source, keeps one Lettuce connection
 * per node, and sends every command straight to the node that serves the key's shard.
 *
 * <pre>{@code
 * JumpgateClient client = JumpgateClient.create(JumpgateOptions.builder()
 *     .etcd(EtcdTopologyOptions.builder().endpoints("http://127.0.0.1:2379").build())
 *     .build());
 * JumpgateCommands<String, String> redis = client.connect().sync();
 * redis.set("user:42", "Ada");
 * client.close();
 * }</pre>
 *
 * <p>Thread-safe; meant to be shared (one per application and cluster). Heavy: it owns threads and
 * connections, so close it when done. {@link #create} waits for the first valid topology, at most
 * the options' {@code startTimeout}.
 *
 * <p>With a Micrometer registry in the options, the client records the meters of docs/metrics.md
 * and withdraws them when it closes. With the topology in etcd, it registers itself under {@code
 * /jumpgate/<cluster>/clients/<client-id>} (unless {@link JumpgateOptions.Builder#registration}
 * says not to), keeps the applied topology revision there, and deletes the key when it closes.
 */
public final class JumpgateClient implements AutoCloseable {

  private final JumpgateOptions options;
  private final TopologySource source;
  private final ClientResources resources;
  private final boolean ownsResources;
  private final NodeConnector connector;
  private final Dispatcher dispatcher;
  private final Xxh64JumpRouter router;
  private final DriverMetrics metrics;
  private final ClientRegistration registration;
  private final String clientId;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();

  private JumpgateClient(
      JumpgateOptions options,
      TopologySource source,
      ClientResources resources,
      boolean ownsResources,
      NodeConnector connector,
      Dispatcher dispatcher,
      Xxh64JumpRouter router,
      DriverMetrics metrics,
      ClientRegistration registration,
      String clientId) {
    this.options = options;
    this.source = source;
    this.resources = resources;
    this.ownsResources = ownsResources;
    this.connector = connector;
    this.dispatcher = dispatcher;
    this.router = router;
    this.metrics = metrics;
    this.registration = registration;
    this.clientId = clientId;
  }

  /**
   * Starts a client: starts the topology source and waits for its first valid snapshot.
   *
   * @throws TopologyUnavailableException when no valid topology came within the start timeout; the
   *     message names the source (etcd endpoints or file) and the cause
   * @throws IncompatibleTopologyException when the cluster's routing or format cannot be served
   */
  public static JumpgateClient create(JumpgateOptions options) {
    Instant since = Instant.now();
    ClientResources resources = options.clientResources().orElse(null);
    boolean ownsResources = resources == null;
    if (ownsResources) {
      resources = DefaultClientResources.create();
    }
    TopologySource source = null;
    NodeConnector connector = null;
    DriverMetrics metrics = DriverMetrics.NONE;
    try {
      source = options.newTopologySource();
      String clientId = options.clientId().orElse(null);
      boolean registering = options.registration() && options.etcd().isPresent();
      if (registering && clientId == null) {
        clientId = ClientRegistration.defaultClientId();
      }
      connector =
          new NodeConnector(
              resources,
              options,
              options.connectionNames() && clientId != null ? "jumpgate:" + clientId : null);
      if (options.meterRegistry().isPresent()) {
        // The only path to Micrometer: without a registry its classes are never loaded.
        metrics =
            MicrometerMetrics.create(
                options.meterRegistry().get(),
                options
                    .etcd()
                    .map(EtcdTopologyOptions::cluster)
                    .orElse(options.topologyDescription()),
                options.clientId().orElse(null),
                source,
                options.etcd().map(EtcdTopologyOptions::clock).orElse(Clock.systemUTC()));
      }
      Dispatcher dispatcher =
          new Dispatcher(
              options,
              connector,
              io.jumpgate.driver.internal.TaskScheduler.on(resources.eventExecutorGroup()),
              metrics);
      metrics.connectionCount(dispatcher::openConnections);
      // Subscribe before starting: the first snapshot and every later one reach the dispatcher.
      source.subscribe(dispatcher);
      TopologySnapshot first = awaitFirst(source, options);
      TopologyMetadata metadata = first.metadata();
      if (!TopologyMetadata.XXH64_JUMP.equals(metadata.routing())) {
        throw new IncompatibleTopologyException(
            "routing '"
                + metadata.routing()
                + "' of "
                + source.description()
                + " is not supported");
      }
      ClientRegistration registration = null;
      if (registering) {
        registration = register(options.etcd().get(), source, clientId, since);
        // a migration's cutover waits for this client's acknowledgements of its freezes
        dispatcher.drainListener(registration::drained);
      }
      return new JumpgateClient(
          options,
          source,
          resources,
          ownsResources,
          connector,
          dispatcher,
          Xxh64JumpRouter.forShards(metadata.shards()),
          metrics,
          registration,
          clientId);
    } catch (RuntimeException e) {
      metrics.close();
      if (source != null) {
        source.close();
      }
      if (connector != null) {
        connector.shutdownAsync();
      }
      if (ownsResources) {
        resources.shutdown(0, 2, TimeUnit.SECONDS);
      }
      throw e;
    }
  }

  /** Registers the client in the background and keeps its applied revision current there. */
  private static ClientRegistration register(
      EtcdTopologyOptions etcd, TopologySource source, String clientId, Instant since) {
    ClientRegistration registration =
        ClientRegistration.start(etcd, clientId, source.current().revision(), since);
    source.subscribe((previous, current) -> registration.revisionApplied(current.revision()));
    // a revision applied between start and subscribe
    registration.revisionApplied(source.current().revision());
    return registration;
  }

  private static TopologySnapshot awaitFirst(TopologySource source, JumpgateOptions options) {
    try {
      return source
          .start()
          .toCompletableFuture()
          .get(options.startTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new TopologyUnavailableException(
          "no topology from "
              + source.description()
              + " within "
              + options.startTimeout().toMillis()
              + " ms"
              + source.status().lastErrorIfAny().map(error -> ": " + error).orElse(""));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof JumpgateException cause) {
        // made on the topology thread: its stack shows that thread alone
        throw CallerStack.addTo(cause, "JumpgateClient.create");
      }
      throw new TopologyUnavailableException(
          "no topology from " + source.description() + ": " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopologyUnavailableException(
          "interrupted while waiting for the topology from " + source.description(), e);
    }
  }

  /** A view with String keys and values, UTF-8 encoded. */
  public JumpgateConnection<String, String> connect() {
    return connect(StringCodec.UTF8);
  }

  /** A view with the codec's key and value types. */
  public <K, V> JumpgateConnection<K, V> connect(RedisCodec<K, V> codec) {
    requireOpen();
    CommandExecutor<K, V> executor =
        new CommandExecutor<>(
            codec, KeyRouter.of(codec, router), dispatcher, options.commandTimeout().toNanos());
    AsyncCommands<K, V> async = new AsyncCommands<>(executor);
    AsyncCommands<K, V> blocking = new AsyncCommands<>(executor.forBlockingCaller());
    return Views.connection(async, blocking, options.commandTimeout());
  }

  /**
   * Opens a connection of its own to one node, for what needs one server from start to end (WATCH,
   * MULTI and EXEC): set up as the client's node connections (credentials, TLS, RESP2, connect
   * timeout, commands bounded by the command timeout), but nothing on it is routed, retried or held
   * for a freeze: every command goes to that node, whatever the map says later. The caller closes
   * it.
   *
   * @param node a node of the map, e.g. {@code topology().route(shard).leader()}
   * @return completes with the connection, or with the reason it could not connect
   * @throws IllegalStateException when the client is closed
   */
  public <K, V> CompletionStage<StatefulRedisConnection<K, V>> connectToNode(
      Node node, RedisCodec<K, V> codec) {
    requireOpen();
    return connector.connect(Objects.requireNonNull(node, "node"), codec);
  }

  /**
   * Opens a publish/subscribe connection of its own to one node, set up as {@link
   * #connectToNode}'s; Lettuce subscribes again to its channels when it reconnects to that node.
   * The caller closes it.
   *
   * @throws IllegalStateException when the client is closed
   */
  public <K, V> CompletionStage<StatefulRedisPubSubConnection<K, V>> connectPubSubToNode(
      Node node, RedisCodec<K, V> codec) {
    requireOpen();
    return connector.connectPubSub(Objects.requireNonNull(node, "node"), codec);
  }

  /** The topology in force. */
  public TopologySnapshot topology() {
    return source.current();
  }

  /** How current the topology source is. */
  public TopologySourceStatus topologyStatus() {
    return source.status();
  }

  /**
   * The id this client registers under in etcd ({@code <root>/clients/<id>}): the options' {@code
   * clientId}, or one made for this client when registration is on; empty when registration is off
   * and no id was given.
   */
  public Optional<String> clientId() {
    return Optional.ofNullable(clientId);
  }

  /** The options this client was created with. */
  public JumpgateOptions options() {
    return options;
  }

  private void requireOpen() {
    if (closing.get()) {
      throw new IllegalStateException("the Jumpgate client is closed");
    }
  }

  /**
   * Stops taking commands, lets the ones in flight end (at most the command timeout), deletes its
   * registration in etcd (revokes its lease; at most {@link ClientRegistration#MAX_CLOSE_WAIT}),
   * then closes the connections, the topology source and the resources it owns, in that order;
   * last, it withdraws its meters.
   *
   * <p>Returns at once and never blocks, so it may be called on any thread, a Netty event loop (the
   * callback of an asynchronous command) or a jetcd thread included: the steps that block (closing
   * the topology source and its etcd client, shutting down Lettuce) run on a thread of the client's
   * own, {@code jumpgate-close-<cluster>}, which ends with the close. Idempotent: a second call
   * returns the same completion. The stage never completes exceptionally.
   */
  public CompletionStage<Void> closeAsync() {
    if (!closing.compareAndSet(false, true)) {
      return closed.copy();
    }
    dispatcher.stopAccepting();
    ScheduledThreadPoolExecutor closer = closeThread();
    long deadline = System.nanoTime() + options.commandTimeout().toNanos();
    CompletableFuture<Void> drained = new CompletableFuture<>();
    closer.execute(() -> awaitDrained(closer, drained, deadline));
    drained
        .thenComposeAsync(
            ignored ->
                registration == null
                    ? CompletableFuture.completedFuture(null)
                    : registration.close(),
            closer)
        .handle((ignored, error) -> null)
        .thenComposeAsync(ignored -> dispatcher.close(), closer)
        .handle((ignored, error) -> null)
        .thenRunAsync(source::close, closer)
        .handle((ignored, error) -> null)
        .thenComposeAsync(ignored -> connector.shutdownAsync(), closer)
        .handle((ignored, error) -> null)
        .thenRunAsync(
            () -> {
              if (ownsResources) {
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
              }
            },
            closer)
        .whenCompleteAsync(
            (ignored, error) -> {
              try {
                metrics.close();
              } finally {
                closer.shutdown();
                closed.complete(null);
              }
            },
            closer);
    return closed.copy();
  }

  /** The one thread the close runs its steps on; it ends when the close is done. */
  private ScheduledThreadPoolExecutor closeThread() {
    String name =
        "jumpgate-close-" + options.etcd().map(EtcdTopologyOptions::cluster).orElse("client");
    ScheduledThreadPoolExecutor closer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, name);
              thread.setDaemon(true);
              return thread;
            });
    closer.setRemoveOnCancelPolicy(true);
    return closer;
  }

  /** Completes {@code drained} when no command is in flight any more, or at the deadline. */
  private void awaitDrained(
      ScheduledThreadPoolExecutor closer, CompletableFuture<Void> drained, long deadline) {
    if (dispatcher.inFlight() <= 0 || System.nanoTime() >= deadline) {
      drained.complete(null);
      return;
    }
    closer.schedule(() -> awaitDrained(closer, drained, deadline), 5, TimeUnit.MILLISECONDS);
  }

  /**
   * {@link #closeAsync()} and wait for it.
   *
   * @throws IllegalStateException when called on a Netty event-loop thread (e.g. in a callback of
   *     an asynchronous command): waiting there would block the very thread the close needs. The
   *     client is closing all the same; use {@link #closeAsync()} on such threads.
   */
  @Override
  public void close() {
    CompletionStage<Void> closing = closeAsync();
    if (Views.onEventLoop()) {
      throw new IllegalStateException(
          "close() on event-loop thread "
              + Thread.currentThread().getName()
              + " would wait for that thread and deadlock: the client is closing in the"
              + " background; use closeAsync() there");
    }
    closing.toCompletableFuture().join();
  }
}
