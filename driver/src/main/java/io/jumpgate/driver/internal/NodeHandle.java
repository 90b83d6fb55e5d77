package io.jumpgate.driver.internal;

import io.jumpgate.spi.Node;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One node's connection: a single multiplexed Lettuce connection, opened on first use (or at
 * warm-up), shared by every thread and codec. Lettuce reconnects it in the background when it
 * breaks; while it is down, commands are rejected at once and the router decides what to do.
 *
 * <p>When the first connect fails, the node is <em>down</em>: tries to it fail at once with {@link
 * NodeDownException} (not run) while the handle connects again in the background, after a backoff
 * that doubles from {@link #FIRST_RECONNECT_DELAY_NANOS} up to {@link #MAX_RECONNECT_DELAY_NANOS}.
 * No command starts a connect of its own, and none waits for one: a node that is down costs its
 * callers nothing but the failure. Only the very first connect, before anything failed, is waited
 * for (bounded by each command's deadline).
 *
 * <p>The hot path reads {@link #openConnection()}: one volatile read. Connecting is single-flight.
 * Thread-safe.
 */
public final class NodeHandle {

  /** The wait before the first background reconnect after a failed connect. */
  static final long FIRST_RECONNECT_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** The longest wait between two background reconnects. */
  static final long MAX_RECONNECT_DELAY_NANOS = TimeUnit.SECONDS.toNanos(5);

  /**
   * Source of {@link #serial()}: unique per handle in this JVM. Handles are kept per node for a
   * client's life, so 2^31 of them is out of reach; past it a serial would be negative and a
   * fan-out would fail loudly (KeyGroups refuses negative groups), never group two nodes as one.
   */
  private static final AtomicInteger SERIALS = new AtomicInteger();

  private final int serial = SERIALS.getAndIncrement();
  private final Node node;
  private final String identity;
  private final ConnectionOpener opener;
  private final TaskScheduler scheduler;
  private final Object lock = new Object();

  private volatile StatefulRedisConnection<byte[], byte[]> connection;
  private volatile CompletableFuture<StatefulRedisConnection<byte[], byte[]>> firstConnect;
  private volatile int failedConnects;
  private volatile Throwable lastConnectFailure;
  private volatile long downSinceNanos;
  private volatile boolean reconnecting;
  private volatile boolean retired;

  NodeHandle(Node node, ConnectionOpener opener, TaskScheduler scheduler) {
    this.node = node;
    this.identity = identityOf(node);
    this.opener = opener;
    this.scheduler = scheduler;
  }

  /** What makes two nodes the same connection target: id, address and TLS. */
  public static String identityOf(Node node) {
    return node.id() + "@" + node.address() + (node.tls() ? "+tls" : "");
  }

  /**
   * A number unique to this handle in this JVM: a fan-out groups keys by it, with a field read
   * instead of a map lookup per key.
   */
  int serial() {
    return serial;
  }

  public Node node() {
    return node;
  }

  public String identity() {
    return identity;
  }

  /** The connection when it is open, else null. */
  public StatefulRedisConnection<byte[], byte[]> openConnection() {
    StatefulRedisConnection<byte[], byte[]> current = connection;
    return current != null && current.isOpen() ? current : null;
  }

  /** The connection, open or not (Lettuce may be reconnecting it), or null if none was made. */
  StatefulRedisConnection<byte[], byte[]> connectionIfAny() {
    return connection;
  }

  /** Whether a read policy should avoid this node now: it is down or its connection is broken. */
  public boolean looksUnreachable() {
    StatefulRedisConnection<byte[], byte[]> current = connection;
    if (current != null) {
      return !current.isOpen();
    }
    return failedConnects > 0;
  }

  /** Whether the node is down: its last connect failed and no connection was opened since. */
  boolean isDown() {
    return connection == null && failedConnects > 0;
  }

  /**
   * The connection for a try: done at once with the connection (open, or being re-established by
   * Lettuce, which then refuses commands at once), done at once with {@link NodeDownException} when
   * the node is down, or {@link NodeRetiredException} when it left the map; pending only while the
   * very first connect is in flight.
   */
  public CompletionStage<StatefulRedisConnection<byte[], byte[]>> connection() {
    StatefulRedisConnection<byte[], byte[]> current = connection;
    if (current != null) {
      return CompletableFuture.completedFuture(current);
    }
    if (retired) {
      return CompletableFuture.failedFuture(
          new NodeRetiredException("node " + identity + " left the map"));
    }
    if (failedConnects > 0) {
      return CompletableFuture.failedFuture(downFailure());
    }
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> pending = firstConnect;
    if (pending != null) {
      return pending;
    }
    synchronized (lock) {
      if (connection != null) {
        return CompletableFuture.completedFuture(connection);
      }
      if (failedConnects > 0) {
        return CompletableFuture.failedFuture(downFailure());
      }
      if (firstConnect == null) {
        firstConnect = connect();
      }
      return firstConnect;
    }
  }

  private NodeDownException downFailure() {
    Throwable cause = lastConnectFailure;
    long downForMillis =
        TimeUnit.NANOSECONDS.toMillis(Math.max(0, scheduler.nanoTime() - downSinceNanos));
    return new NodeDownException(
        "node "
            + node.id()
            + " ("
            + node.address()
            + ") is down: "
            + failedConnects
            + " connect(s) failed over "
            + downForMillis
            + " ms, reconnecting in the background; not sent"
            + (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"),
        cause);
  }

  /** One connect; its outcome updates the handle. */
  private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connect() {
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> started;
    try {
      started = opener.connect(node);
    } catch (RuntimeException e) {
      started = CompletableFuture.failedFuture(e);
    }
    return started.whenComplete(this::connectEnded);
  }

  private void connectEnded(StatefulRedisConnection<byte[], byte[]> opened, Throwable error) {
    boolean scheduleReconnect = false;
    synchronized (lock) {
      firstConnect = null;
      reconnecting = false;
      if (error == null) {
        if (retired) {
          opened.closeAsync();
          return;
        }
        connection = opened;
        failedConnects = 0;
        lastConnectFailure = null;
        return;
      }
      if (failedConnects == 0) {
        downSinceNanos = scheduler.nanoTime();
      }
      lastConnectFailure = error;
      failedConnects = failedConnects + 1;
      scheduleReconnect = !retired;
    }
    if (scheduleReconnect) {
      scheduleReconnect();
    }
  }

  private void scheduleReconnect() {
    int failures = failedConnects;
    long delay =
        Math.min(
            MAX_RECONNECT_DELAY_NANOS, FIRST_RECONNECT_DELAY_NANOS << Math.min(failures - 1, 20));
    try {
      scheduler.schedule(this::reconnect, delay);
    } catch (RejectedExecutionException e) {
      // the client is closing: no more reconnects
    }
  }

  private void reconnect() {
    synchronized (lock) {
      if (retired || connection != null || reconnecting) {
        return;
      }
      reconnecting = true;
    }
    connect();
  }

  /** How many connects failed in a row (0 once a connection is open). */
  int failedConnects() {
    return failedConnects;
  }

  /** The node left the topology: no new connection; the open one is closed after a grace time. */
  public void retire(long graceNanos) {
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> pending;
    synchronized (lock) {
      retired = true;
      pending = firstConnect;
    }
    if (pending != null) {
      // Tries waiting for the first connection go where the newer map says, at once.
      pending.completeExceptionally(new NodeRetiredException("node " + identity + " left the map"));
    }
    try {
      scheduler.schedule(this::close, graceNanos);
    } catch (RejectedExecutionException e) {
      close();
    }
  }

  /** Closes the connection now. */
  public CompletableFuture<Void> close() {
    StatefulRedisConnection<byte[], byte[]> current;
    synchronized (lock) {
      retired = true;
      current = connection;
      connection = null;
    }
    return current == null ? CompletableFuture.completedFuture(null) : current.closeAsync();
  }

  public boolean isRetired() {
    return retired;
  }

  @Override
  public String toString() {
    return identity;
  }
}
