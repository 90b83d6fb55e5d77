package io.jumpgate.driver.internal;

import io.jumpgate.spi.Node;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One node's connection: a single multiplexed Lettuce connection, opened on first use (or at
 * warm-up), shared by every thread and codec. Lettuce reconnects it in the background when it
 * breaks; while it is down, commands are rejected at once and the router decides what to do.
 *
 * <p>The hot path reads {@link #openConnection()}: one volatile read. Connecting is single-flight:
 * concurrent first users share one attempt. Thread-safe.
 */
public final class NodeHandle {

  /** How long after a failed connect the node counts as unreachable for read policies. */
  private static final long UNREACHABLE_FOR_NANOS = TimeUnit.SECONDS.toNanos(1);

  /**
   * Source of {@link #serial()}: unique per handle in this JVM. Handles are kept per node for a
   * client's life, so 2^31 of them is out of reach; past it a serial would be negative and a
   * fan-out would fail loudly (KeyGroups refuses negative groups), never group two nodes as one.
   */
  private static final java.util.concurrent.atomic.AtomicInteger SERIALS =
      new java.util.concurrent.atomic.AtomicInteger();

  private final int serial = SERIALS.getAndIncrement();
  private final Node node;
  private final String identity;
  private final NodeConnector connector;
  private final Object lock = new Object();

  private volatile StatefulRedisConnection<byte[], byte[]> connection;
  private volatile CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connecting;
  private volatile long lastFailureNanos;
  private volatile boolean failedRecently;
  private volatile boolean retired;

  NodeHandle(Node node, NodeConnector connector) {
    this.node = node;
    this.identity = identityOf(node);
    this.connector = connector;
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

  /** Whether a read policy should avoid this node now: it is down or failed to connect lately. */
  public boolean looksUnreachable() {
    StatefulRedisConnection<byte[], byte[]> current = connection;
    if (current != null) {
      return !current.isOpen();
    }
    return failedRecently && System.nanoTime() - lastFailureNanos < UNREACHABLE_FOR_NANOS;
  }

  /**
   * The connection, opening it if needed. Completes exceptionally when connecting fails (the next
   * call tries again).
   */
  public CompletionStage<StatefulRedisConnection<byte[], byte[]>> connection() {
    StatefulRedisConnection<byte[], byte[]> current = connection;
    if (current != null) {
      return CompletableFuture.completedFuture(current);
    }
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> attempt = connecting;
    if (attempt != null) {
      return attempt;
    }
    synchronized (lock) {
      if (connection != null) {
        return CompletableFuture.completedFuture(connection);
      }
      if (connecting != null) {
        return connecting;
      }
      if (retired) {
        CompletableFuture<StatefulRedisConnection<byte[], byte[]>> failed =
            new CompletableFuture<>();
        failed.completeExceptionally(
            new IllegalStateException("node " + identity + " left the topology"));
        return failed;
      }
      CompletableFuture<StatefulRedisConnection<byte[], byte[]>> started = connector.connect(node);
      connecting = started;
      started.whenComplete(
          (opened, error) -> {
            synchronized (lock) {
              connecting = null;
              if (error != null) {
                lastFailureNanos = System.nanoTime();
                failedRecently = true;
                return;
              }
              failedRecently = false;
              if (retired) {
                opened.closeAsync();
                return;
              }
              connection = opened;
            }
          });
      return started;
    }
  }

  /** The node left the topology: no new connection; the open one is closed after a grace time. */
  public void retire(long graceNanos, java.util.concurrent.ScheduledExecutorService scheduler) {
    synchronized (lock) {
      retired = true;
    }
    scheduler.schedule(this::close, graceNanos, TimeUnit.NANOSECONDS);
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
