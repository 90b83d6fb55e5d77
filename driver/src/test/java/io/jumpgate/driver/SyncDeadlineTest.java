package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jumpgate.driver.ScriptedRespServer.Reply;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The blocking view watches its command's deadline itself (Lettuce arms no timer for its tries): a
 * command that gets no answer still ends at its deadline, typed and counted as ended, and a try
 * lost after the write is still tried again.
 */
class SyncDeadlineTest {

  private static final int SHARDS = 16;
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  private final BlockingQueue<CommandEvent> events = new LinkedBlockingQueue<>();
  private ScriptedRespServer server;
  private JumpgateClient client;

  @AfterEach
  void closeEverything() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void should_end_an_unanswered_blocking_call_at_its_deadline_with_the_dispatchers_timeout()
      throws Exception {
    // Given a node that reads GET and never answers
    server = ScriptedRespServer.start().on("GET", Reply.none()).on("PING", Reply.with("+PONG\r\n"));
    JumpgateCommands<String, String> redis = connect().sync();
    awaitConnected(() -> redis.ping()); // the GET below waits for its answer only

    // When a blocking GET is made
    long start = System.nanoTime();
    Throwable failure = catchThrowable(() -> redis.get("key"));
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    // Then it fails at its deadline (not at the view's own limit, deadline + 1 s) with the
    // dispatcher's timeout, which lists the try that was written
    assertThat(failure).isInstanceOf(CommandTimeoutException.class);
    CommandTimeoutException timeout = (CommandTimeoutException) failure;
    assertThat(timeout.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(timeout.attempts()).hasSize(1);
    assertThat(elapsedMillis).isGreaterThanOrEqualTo(TIMEOUT.toMillis() - 5).isLessThan(1_900);
    // and the command was counted as ended, once
    CommandEvent event = nextEvent("GET");
    assertThat(event.success()).isFalse();
  }

  @Test
  void should_try_a_blocking_call_again_after_a_retriable_answer() throws Exception {
    // Given a node that answers TRYAGAIN to the first GET and the value to the next one
    AtomicInteger gets = new AtomicInteger();
    server =
        ScriptedRespServer.start()
            .on(
                "GET",
                arguments ->
                    gets.incrementAndGet() == 1
                        ? Reply.error("TRYAGAIN Multiple keys request during rehashing of slot")
                        : Reply.with("$5\r\nvalue\r\n"));
    JumpgateCommands<String, String> redis = connect().sync();

    // When a blocking GET is made, Then the second try answers it
    assertThat(redis.get("key")).isEqualTo("value");
    assertThat(gets.get()).isEqualTo(2);
    assertThat(nextEvent("GET").attempts()).isEqualTo(2);
  }

  @Test
  void should_leave_the_asynchronous_view_its_timer() throws Exception {
    // Given a node that never answers GET
    server = ScriptedRespServer.start().on("GET", Reply.none()).on("PING", Reply.with("+PONG\r\n"));
    JumpgateAsyncCommands<String, String> redis = connect().async();
    awaitConnected(() -> redis.ping().toCompletableFuture().join());

    // When an asynchronous GET is made and nobody waits for it, Then it still ends at its deadline
    Throwable failure =
        catchThrowable(() -> redis.get("key").toCompletableFuture().get(5, TimeUnit.SECONDS));
    assertThat(failure).isInstanceOf(ExecutionException.class);
    assertThat(failure.getCause()).isInstanceOf(CommandTimeoutException.class);
  }

  private JumpgateConnection<String, String> connect() {
    Node node = Node.of("node-0", "127.0.0.1", server.port());
    client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologySource(
                    InMemoryTopologySource.withLeaders(SHARDS, List.of(node), shard -> node))
                .commandTimeout(TIMEOUT)
                .connectTimeout(Duration.ofSeconds(5))
                .commandListener(
                    new CommandListener() {
                      @Override
                      public void commandEnded(CommandEvent event) {
                        events.add(event);
                      }
                    })
                .build());
    return client.connect();
  }

  /**
   * PINGs until the node answers (its first connect may be slow on a loaded machine), at most 10 s.
   */
  private static void awaitConnected(Runnable ping) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        ping.run();
        return;
      } catch (RuntimeException e) {
        assertThat(System.nanoTime())
            .as("the node did not answer PING within 10 s: %s", e)
            .isLessThan(deadline);
      }
    }
  }

  private CommandEvent nextEvent(String command) throws InterruptedException {
    while (true) {
      CommandEvent event = events.poll(5, TimeUnit.SECONDS);
      assertThat(event).as("no %s event within 5 s", command).isNotNull();
      if (event.command().equals(command)) {
        return event;
      }
    }
  }
}
