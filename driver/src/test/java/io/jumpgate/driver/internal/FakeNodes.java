package io.jumpgate.driver.internal;

import io.jumpgate.spi.Node;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Nodes for unit tests of the dispatcher: a {@link ConnectionOpener} whose connections record the
 * tries handed to them instead of writing them, so the test decides when each try is written,
 * answered or failed. A node's connect is answered by the test too (or at once, as configured).
 *
 * <p>Used from the test thread, but for paused dispatches ({@link Connection#pauseNextDispatch}),
 * whose thread the test starts itself.
 */
final class FakeNodes implements ConnectionOpener {

  /** One fake connection: the tries dispatched to it, in order. */
  static final class Connection {
    final String address;
    final List<RedisCommand<?, ?, ?>> dispatched =
        java.util.Collections.synchronizedList(new ArrayList<>());

    /** How many times a list of tries was handed over at once ({@code dispatch(Collection)}). */
    final java.util.concurrent.atomic.AtomicInteger batches =
        new java.util.concurrent.atomic.AtomicInteger();

    volatile boolean open = true;
    volatile RuntimeException refuseWith;
    private volatile java.util.concurrent.CountDownLatch pauseEntered;
    private volatile java.util.concurrent.CountDownLatch pauseRelease;

    /**
     * Makes the next dispatch stop inside Lettuce's {@code dispatch} (before the command is queued
     * for writing) until {@code release} is counted down; {@code entered} is counted down when it
     * got there. For tests that need a thread descheduled between routing and writing.
     */
    void pauseNextDispatch(
        java.util.concurrent.CountDownLatch entered, java.util.concurrent.CountDownLatch release) {
      pauseRelease = release;
      pauseEntered = entered;
    }

    private void pauseIfAsked() {
      java.util.concurrent.CountDownLatch entered = pauseEntered;
      if (entered == null) {
        return;
      }
      pauseEntered = null;
      entered.countDown();
      try {
        if (!pauseRelease.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
          throw new AssertionError("a paused dispatch was not released within 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }

    Connection(String address) {
      this.address = address;
    }

    /** The last try handed to this connection. */
    RedisCommand<?, ?, ?> last() {
      if (dispatched.isEmpty()) {
        throw new AssertionError("nothing was dispatched to " + address);
      }
      return dispatched.get(dispatched.size() - 1);
    }

    /** Writes the last try: Lettuce encodes it for the socket. */
    RedisCommand<?, ?, ?> writeLast() {
      RedisCommand<?, ?, ?> command = last();
      ByteBuf buffer = Unpooled.buffer();
      try {
        command.encode(buffer);
      } finally {
        buffer.release();
      }
      return command;
    }
  }

  private final Map<String, Connection> connections = new HashMap<>();
  private final Map<String, CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> pending =
      new HashMap<>();
  private final Map<String, Integer> connects = new HashMap<>();
  private boolean connectAtOnce = true;

  /** From now on, connects stay pending until {@link #completeConnect} or {@link #failConnect}. */
  FakeNodes holdConnects() {
    connectAtOnce = false;
    return this;
  }

  FakeNodes connectAtOnce() {
    connectAtOnce = true;
    return this;
  }

  @Override
  public CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connect(Node node) {
    String address = node.address();
    connects.merge(address, 1, Integer::sum);
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> future = new CompletableFuture<>();
    if (connectAtOnce) {
      future.complete(proxy(connection(address)));
    } else {
      pending.put(address, future);
    }
    return future;
  }

  /** How many connects to this address were started. */
  int connects(String address) {
    return connects.getOrDefault(address, 0);
  }

  void completeConnect(String address) {
    pendingFor(address).complete(proxy(connection(address)));
  }

  void failConnect(String address) {
    pendingFor(address)
        .completeExceptionally(
            new io.lettuce.core.RedisConnectionException(
                "Unable to connect to " + address + ": Connection refused"));
  }

  private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> pendingFor(String address) {
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> future = pending.remove(address);
    if (future == null) {
      throw new AssertionError("no connect to " + address + " is pending");
    }
    return future;
  }

  /** The fake connection to an address (made on first use). */
  Connection connection(String address) {
    return connections.computeIfAbsent(address, Connection::new);
  }

  @SuppressWarnings("unchecked")
  private static StatefulRedisConnection<byte[], byte[]> proxy(Connection connection) {
    return (StatefulRedisConnection<byte[], byte[]>)
        Proxy.newProxyInstance(
            FakeNodes.class.getClassLoader(),
            new Class<?>[] {StatefulRedisConnection.class},
            (self, method, arguments) -> {
              switch (method.getName()) {
                case "dispatch":
                  if (arguments[0] instanceof java.util.Collection<?> batch) {
                    connection.batches.incrementAndGet();
                    for (Object each : batch) {
                      dispatchTo(connection, (RedisCommand<?, ?, ?>) each);
                    }
                    return new ArrayList<>(batch);
                  }
                  return dispatchTo(connection, (RedisCommand<?, ?, ?>) arguments[0]);
                case "isOpen":
                  return connection.open;
                case "closeAsync":
                  connection.open = false;
                  return CompletableFuture.completedFuture(null);
                case "toString":
                  return "FakeConnection[" + connection.address + "]";
                case "hashCode":
                  return System.identityHashCode(self);
                case "equals":
                  return self == arguments[0];
                default:
                  throw new UnsupportedOperationException(method.getName());
              }
            });
  }

  private static RedisCommand<?, ?, ?> dispatchTo(
      Connection connection, RedisCommand<?, ?, ?> command) {
    connection.pauseIfAsked();
    if (connection.refuseWith != null) {
      // as Lettuce does: the command is completed, not thrown
      command.completeExceptionally(connection.refuseWith);
      return command;
    }
    connection.dispatched.add(command);
    return command;
  }

  /** Lettuce's refusal of a command on a connection whose queue is full. */
  static RedisException queueFull() {
    return new RedisException("Request queue size exceeded: 10000. Commands are not accepted.");
  }
}
