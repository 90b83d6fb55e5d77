package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Closing a client from a Netty thread, against a real redis-server. */
class DriverCloseIT {

  /** How long the test source's close blocks, as jetcd's close does while it ends its channels. */
  private static final Duration BLOCKING_CLOSE = Duration.ofMillis(500);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_run_no_blocking_close_step_on_the_event_loop_when_closed_in_a_command_callback()
      throws Exception {
    // Given a client on one redis-server, whose topology source blocks in close() like jetcd's
    RedisProcess redis = fixture.redis();
    BlockingCloseSource source = new BlockingCloseSource(redis.port());
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                JumpgateOptions.builder()
                    .topologySource(source)
                    .commandTimeout(Duration.ofSeconds(10))
                    .build()));
    JumpgateAsyncCommands<String, String> redisAsync = client.connect().async();
    redisAsync.set("close-key", "v").toCompletableFuture().get(10, TimeUnit.SECONDS);

    // When an asynchronous command's callback closes the client (the server is paused while the
    // callback is attached, so that the reply, and the callback, come on Lettuce's event loop)
    AtomicReference<String> callbackThread = new AtomicReference<>();
    AtomicReference<Boolean> callbackOnEventLoop = new AtomicReference<>();
    AtomicReference<CompletionStage<Void>> closing = new AtomicReference<>();
    CompletableFuture<Long> closeAsyncNanos = new CompletableFuture<>();
    redis.pause();
    try {
      redisAsync
          .get("close-key")
          .whenComplete(
              (value, error) -> {
                callbackThread.set(Thread.currentThread().getName());
                callbackOnEventLoop.set(ThreadExecutorMap.currentExecutor() != null);
                long start = System.nanoTime();
                try {
                  closing.set(client.closeAsync());
                } finally {
                  closeAsyncNanos.complete(System.nanoTime() - start);
                }
              });
    } finally {
      redis.resume();
    }

    // Then the callback ran on the event loop, and closeAsync() returned there at once
    long callbackMillis = TimeUnit.NANOSECONDS.toMillis(closeAsyncNanos.get(10, TimeUnit.SECONDS));
    System.out.println(
        "closeAsync() in a command callback on "
            + callbackThread.get()
            + " returned in "
            + callbackMillis
            + " ms");
    assertThat(callbackOnEventLoop.get())
        .as("the command's callback ran on a Netty thread (%s)", callbackThread.get())
        .isTrue();
    assertThat(callbackMillis)
        .as(
            "ms closeAsync() took on event loop %s (the source's close blocks %d ms)",
            callbackThread.get(), BLOCKING_CLOSE.toMillis())
        .isLessThan(BLOCKING_CLOSE.toMillis() / 2);
    // and the close completed later, with the source's close on a thread of the client's own
    closing.get().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertThat(source.closed.await(0, TimeUnit.SECONDS)).as("the source was closed").isTrue();
    assertThat(source.closedOnEventLoop)
        .as("the source's close ran on a Netty thread (%s)", source.closeThread)
        .isFalse();
    assertThat(source.closeThread)
        .as("the thread the source's close ran on")
        .startsWith("jumpgate-close-");
  }

  /**
   * One shard map on one node; {@code close()} records its thread and blocks like jetcd's close.
   */
  private static final class BlockingCloseSource implements TopologySource {
    private final TopologySnapshot snapshot;
    private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
    final CountDownLatch closed = new CountDownLatch(1);
    volatile String closeThread;
    volatile boolean closedOnEventLoop;

    BlockingCloseSource(int port) {
      Node node = Node.of("node-0", "127.0.0.1", port);
      int shards = 16;
      ShardRoute[] routes = new ShardRoute[shards];
      for (int shard = 0; shard < shards; shard++) {
        routes[shard] = ShardRoute.of(shard, node, List.of(), 0, ShardState.ACTIVE, 1);
      }
      snapshot =
          TopologySnapshot.create(
              "close-it",
              1,
              TopologyMetadata.of(shards),
              Map.of(node.id(), node),
              routes,
              List.of(),
              Instant.now());
    }

    @Override
    public CompletionStage<TopologySnapshot> start() {
      for (TopologyListener listener : listeners) {
        listener.onTopologyChange(null, snapshot);
      }
      return CompletableFuture.completedFuture(snapshot);
    }

    @Override
    public TopologySnapshot current() {
      return snapshot;
    }

    @Override
    public AutoCloseable subscribe(TopologyListener listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    @Override
    public TopologySourceStatus status() {
      return new TopologySourceStatus(true, snapshot.revision(), Instant.now(), null);
    }

    @Override
    public String description() {
      return "close-it source";
    }

    @Override
    public void close() {
      if (closed.getCount() == 0) {
        return;
      }
      closeThread = Thread.currentThread().getName();
      closedOnEventLoop = ThreadExecutorMap.currentExecutor() != null;
      try {
        // stands for the blocking work of a real source's close (not a synchronisation)
        Thread.sleep(BLOCKING_CLOSE.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        closed.countDown();
      }
    }
  }
}
