package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jumpgate.driver.internal.NodeConnector;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Lettuce starts a connect partly on its caller's thread, and a JVM's first start (class loading,
 * Netty's set-up) once took longer than a command's deadline on a loaded machine: commands then
 * ended past their deadline. Here Lettuce's start is held for as long as the test wants (a {@link
 * NettyCustomizer} that Lettuce calls while it starts a connect), and the calls must still return
 * at once and end by their deadline. Without a separate connect thread they would wait for the
 * release.
 */
class ConnectStartTest {

  private static final Duration TIMEOUT = Duration.ofMillis(500);

  /** What a call may take beyond its deadline on a loaded 2-core machine; the hold is unbounded. */
  private static final Duration MARGIN = Duration.ofSeconds(1);

  private static final Node NODE = Node.of("held", "127.0.0.1", 7000);

  private final HeldStart held = new HeldStart();
  private final ClientResources resources =
      DefaultClientResources.builder().ioThreadPoolSize(1).nettyCustomizer(held).build();
  private final ExecutorService callers = Executors.newCachedThreadPool();
  private JumpgateClient client;
  private NodeConnector connector;

  @AfterEach
  void closeEverything() {
    held.release.countDown();
    callers.shutdownNow();
    if (client != null) {
      client.close();
    }
    if (connector != null) {
      connector.shutdownAsync().join();
    }
    resources.shutdown(0, 2, TimeUnit.SECONDS);
  }

  @Test
  void should_return_from_connect_at_once_and_start_lettuces_connect_on_a_connect_thread()
      throws Exception {
    connector =
        new NodeConnector(
            resources,
            JumpgateOptions.builder()
                .topologySource(InMemoryTopologySource.withLeaders(1, List.of(NODE), s -> NODE))
                .build());

    Future<?> connecting = within(() -> connector.connect(NODE), TIMEOUT, "connect(node)");

    assertThat(connecting.isDone()).as("the connect, while Lettuce's start is held").isFalse();
    assertThat(held.started.await(MARGIN.toMillis(), TimeUnit.MILLISECONDS))
        .as("Lettuce started the connect")
        .isTrue();
    assertThat(held.threads).allMatch(name -> name.startsWith("jumpgate-connect-"));
  }

  @Test
  void should_end_blocking_and_asynchronous_calls_by_their_deadline_while_a_connect_start_hangs()
      throws Exception {
    client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologySource(InMemoryTopologySource.withLeaders(16, List.of(NODE), s -> NODE))
                .clientResources(resources)
                .commandTimeout(TIMEOUT)
                .build());
    JumpgateConnection<String, String> connection = client.connect();

    Throwable blocking = within(() -> catchThrowable(() -> connection.sync().get("a")), "GET");
    assertThat(blocking).isInstanceOf(CommandTimeoutException.class);

    // the connect is still held: the next command waits for the same one, with its own deadline
    Throwable asynchronous =
        within(
            () ->
                catchThrowable(
                    () ->
                        connection
                            .async()
                            .set("b", "1")
                            .toCompletableFuture()
                            .get(TIMEOUT.plus(MARGIN).toMillis(), TimeUnit.MILLISECONDS)),
            "SET");
    assertThat(asynchronous).isInstanceOf(ExecutionException.class);
    assertThat(asynchronous.getCause()).isInstanceOf(CommandTimeoutException.class);
    assertThat(held.started.getCount()).as("Lettuce's connect start was reached").isZero();
  }

  /** Runs a call on another thread; it must end within the command timeout and the margin. */
  private <T> T within(Callable<T> call, String what) throws Exception {
    return within(call, TIMEOUT.plus(MARGIN), what);
  }

  /** Runs a call on another thread; it must return within {@code limit}. */
  private <T> T within(Callable<T> call, Duration limit, String what) throws Exception {
    Future<T> result = callers.submit(call);
    try {
      return result.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          what
              + " did not end within "
              + limit.toMillis()
              + " ms while Lettuce's connect start was held (command timeout "
              + TIMEOUT.toMillis()
              + " ms)");
    }
  }

  /** Holds every connect that Lettuce starts until released, and records the starting threads. */
  private static final class HeldStart implements NettyCustomizer {
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch started = new CountDownLatch(1);
    final Set<String> threads = ConcurrentHashMap.newKeySet();

    @Override
    public void afterBootstrapInitialized(Bootstrap bootstrap) {
      threads.add(Thread.currentThread().getName());
      started.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
