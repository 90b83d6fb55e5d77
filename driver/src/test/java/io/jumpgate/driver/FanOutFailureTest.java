package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;

import io.jumpgate.driver.ScriptedRespServer.Reply;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.KeyValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a multi-key command split over several nodes fails, against scripted RESP servers: the call
 * ends only after every part ended, names each part's outcome, never stays pending, and never hands
 * the caller an internal exception.
 */
class FanOutFailureTest {

  private static final int SHARDS = 16;
  private static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final List<ScriptedRespServer> servers = new ArrayList<>();
  private final BlockingQueue<CommandEvent> events = new LinkedBlockingQueue<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private JumpgateClient client;

  @AfterEach
  void closeEverything() throws Exception {
    release.countDown();
    try {
      if (client != null) {
        client.close();
      }
    } finally {
      for (ScriptedRespServer server : servers) {
        server.close();
      }
    }
  }

  @Test
  void should_end_after_every_part_and_name_each_part_outcome_when_some_parts_fail()
      throws Exception {
    // Given node-0 answers MSET only when the test says, node-1 closes the connection after
    // reading it (outcome unknown), and nothing listens on node-2's port (not run)
    ScriptedRespServer held = server().on("MSET", Reply.with("+OK\r\n").after(release));
    ScriptedRespServer closing = server().on("MSET", Reply.closeConnection());
    List<Node> nodes =
        List.of(
            Node.of("node-0", "127.0.0.1", held.port()),
            Node.of("node-1", "127.0.0.1", closing.port()),
            Node.of("node-2", "127.0.0.1", closedPort()));
    JumpgateAsyncCommands<String, String> redis =
        connect(
            InMemoryTopologySource.withLeaders(SHARDS, nodes, shard -> nodes.get(shard % 3)),
            Duration.ofSeconds(3),
            RetryOptions.defaults(),
            events::add);
    Map<String, String> values = new LinkedHashMap<>();
    values.put(key(shard -> shard % 3 == 0, 0), "a");
    values.put(key(shard -> shard % 3 == 1, 0), "b");
    values.put(key(shard -> shard % 3 == 2, 0), "c");
    values.put(key(shard -> shard % 3 == 0, 1), "d");

    // When the parts on node-1 and node-2 fail while node-0's is still in flight
    CompletableFuture<String> future = redis.mset(values).toCompletableFuture();
    held.awaitCommand("MSET", WAIT);
    awaitFailedParts("MSET", "node-1", "node-2");

    // Then the call waits for node-0, and then fails naming every part
    assertThat(future)
        .as("the MSET must not end while its part on node-0 is still in flight")
        .isNotDone();
    release.countDown();
    FanOutFailedException failure = fanOutFailure(future, WAIT);
    assertThat(failure.parts())
        .extracting(FanOutPart::nodeId, FanOutPart::keyIndices, FanOutPart::outcome)
        .containsExactly(
            tuple("node-0", List.of(0, 3), Outcome.APPLIED),
            tuple("node-1", List.of(1), Outcome.UNKNOWN),
            tuple("node-2", List.of(2), Outcome.NOT_RUN));
    assertThat(failure.parts().get(0).error()).isNull();
    assertThat(failure.parts().get(1).error()).isInstanceOf(CommandFailedException.class);
    assertThat(failure.parts().get(2).error()).isInstanceOf(NodeUnavailableException.class);
    assertThat(failure.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(failure.command()).isEqualTo("MSET");
    assertThat(failure.getMessage())
        .startsWith("MSET failed on 2 of 3 parts: keys [1] on node-1 (127.0.0.1:")
        .contains("keys [2] on node-2 (127.0.0.1:", ": NOT_RUN, NodeUnavailableException")
        .contains("; answered: keys [0, 3] on node-0 (127.0.0.1:" + held.port() + "): APPLIED");
  }

  @Test
  void should_fail_with_a_typed_error_within_the_deadline_when_an_mget_answer_is_short()
      throws Exception {
    // Given a RESP proxy on node-0 that answers one value whatever the number of keys
    ScriptedRespServer shortAnswer = server().on("MGET", Reply.with("*1\r\n$1\r\nx\r\n"));
    ScriptedRespServer normal = server().on("MGET", Reply.nilPerKey());
    List<Node> nodes =
        List.of(
            Node.of("node-0", "127.0.0.1", shortAnswer.port()),
            Node.of("node-1", "127.0.0.1", normal.port()));
    Duration timeout = Duration.ofSeconds(2);
    JumpgateAsyncCommands<String, String> redis =
        connect(
            InMemoryTopologySource.withLeaders(SHARDS, nodes, shard -> nodes.get(shard % 2)),
            timeout,
            RetryOptions.defaults(),
            events::add);

    // When an MGET sends two keys to node-0
    CompletableFuture<List<KeyValue<String, String>>> future =
        redis
            .mget(
                key(shard -> shard % 2 == 0, 0),
                key(shard -> shard % 2 == 1, 0),
                key(shard -> shard % 2 == 0, 1))
            .toCompletableFuture();

    // Then the call fails before its deadline, naming the command, the node and the keys
    FanOutFailedException failure = fanOutFailure(future, timeout);
    assertThat(failure.parts())
        .extracting(FanOutPart::nodeId, FanOutPart::keyIndices, FanOutPart::outcome)
        .containsExactly(
            tuple("node-0", List.of(0, 2), Outcome.APPLIED),
            tuple("node-1", List.of(1), Outcome.APPLIED));
    assertThat(failure.parts().get(0).error())
        .isInstanceOf(JumpgateException.class)
        .hasMessage(
            "MGET: the answer of node-0 (127.0.0.1:"
                + shortAnswer.port()
                + ") for keys [0, 2] could not be merged (IllegalStateException: MGET of 2 keys"
                + " answered 1 values)");
    assertThat(failure.parts().get(1).error()).isNull();
    assertThat(failure.getMessage()).startsWith("MGET failed on 1 of 2 parts: keys [0, 2]");
  }

  @Test
  void should_fail_with_a_public_exception_when_the_deadline_passes_during_a_regroup()
      throws Exception {
    // Given an MSET of two keys of different shards, both led by node-0, which answers READONLY
    ScriptedRespServer demoted =
        server().on("MSET", Reply.error("READONLY You can't write against a read only replica."));
    ScriptedRespServer promoted = server().on("MSET", Reply.with("+OK\r\n"));
    Node first = Node.of("node-0", "127.0.0.1", demoted.port());
    Node second = Node.of("node-1", "127.0.0.1", promoted.port());
    String stays = key(shard -> true, 0);
    int movingShard = ROUTER.shardOfUtf8(key(shard -> shard != ROUTER.shardOfUtf8(stays), 0));
    String moves = key(shard -> shard == movingShard, 0);
    Duration timeout = Duration.ofSeconds(1);
    InMemoryTopologySource source =
        InMemoryTopologySource.withLeaders(SHARDS, List.of(first, second), shard -> first);
    JumpgateAsyncCommands<String, String> redis =
        connect(
            source,
            timeout,
            RetryOptions.builder().topologyWait(Duration.ofSeconds(30)).build(),
            event -> {
              events.add(event);
              if (event.command().equals("MSET") && !event.success() && event.attempts() >= 2) {
                // the part's retry found its keys on two nodes: the clock passes the deadline
                // before the fan-out can split them (a pause of the thread, as a GC would make)
                passTheDeadline(timeout.minus(event.elapsed()));
              }
            });
    Map<String, String> values = new LinkedHashMap<>();
    values.put(stays, "a");
    values.put(moves, "b");

    // When the map moves one of the shards to node-1 while the part waits for a newer map
    CompletableFuture<String> future = redis.mset(values).toCompletableFuture();
    demoted.awaitCommand("MSET", WAIT);
    source.publishLeaders(shard -> shard == movingShard ? second : first);

    // Then the call fails with the driver's public exception: the part was not run
    FanOutFailedException failure = fanOutFailure(future, WAIT);
    assertThat(failure.parts())
        .extracting(FanOutPart::nodeId, FanOutPart::keyIndices, FanOutPart::outcome)
        .containsExactly(tuple("node-0", List.of(0, 1), Outcome.NOT_RUN));
    assertThat(failure.parts().get(0).error())
        .isInstanceOf(CommandTimeoutException.class)
        .hasMessageContaining("moved to several nodes");
    assertThat(failure.outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(promoted.receivedCommands()).doesNotContain("MSET");
  }

  @Test
  void should_wait_for_parts_in_flight_when_a_regroup_finds_a_shard_without_a_node()
      throws Exception {
    // Given an MSET whose part on node-0 gets READONLY and whose part on node-1 is held
    ScriptedRespServer demoted =
        server().on("MSET", Reply.error("READONLY You can't write against a read only replica."));
    ScriptedRespServer held = server().on("MSET", Reply.with("+OK\r\n").after(release));
    Node first = Node.of("node-0", "127.0.0.1", demoted.port());
    Node second = Node.of("node-1", "127.0.0.1", held.port());
    String stays = key(shard -> shard % 2 == 0, 0);
    int lostShard = ROUTER.shardOfUtf8(key(shard -> shard % 2 == 0 && shard != shardOf(stays), 0));
    String lost = key(shard -> shard == lostShard, 0);
    InMemoryTopologySource source =
        InMemoryTopologySource.withLeaders(
            SHARDS, List.of(first, second), shard -> shard % 2 == 0 ? first : second);
    JumpgateAsyncCommands<String, String> redis =
        connect(
            source,
            Duration.ofSeconds(3),
            RetryOptions.builder().topologyWait(Duration.ofSeconds(30)).build(),
            events::add);
    Map<String, String> values = new LinkedHashMap<>();
    values.put(stays, "a");
    values.put(lost, "b");
    values.put(key(shard -> shard % 2 == 1, 0), "c");

    // When the next map has no leader for one shard of node-0's part, then node-1 answers
    CompletableFuture<String> future = redis.mset(values).toCompletableFuture();
    demoted.awaitCommand("MSET", WAIT);
    held.awaitCommand("MSET", WAIT);
    source.publishLeaders(shard -> shard == lostShard ? null : shard % 2 == 0 ? first : second);
    awaitFailedParts("MSET", "node-0");
    release.countDown();

    // Then the call ended after node-1's part, and says which keys were never sent
    FanOutFailedException failure = fanOutFailure(future, WAIT);
    assertThat(failure.parts())
        .extracting(FanOutPart::nodeId, FanOutPart::keyIndices, FanOutPart::outcome)
        .containsExactly(
            tuple(null, List.of(0, 1), Outcome.NOT_RUN),
            tuple("node-1", List.of(2), Outcome.APPLIED));
    assertThat(failure.parts().get(0).error())
        .isInstanceOf(ShardUnavailableException.class)
        .hasMessageContaining("shard " + lostShard);
    assertThat(failure.getMessage()).contains("keys [0, 1] on no node: NOT_RUN");
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private ScriptedRespServer server() throws IOException {
    ScriptedRespServer server = ScriptedRespServer.start();
    servers.add(server);
    return server;
  }

  private JumpgateAsyncCommands<String, String> connect(
      InMemoryTopologySource source,
      Duration timeout,
      RetryOptions retry,
      Consumer<CommandEvent> listener) {
    client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologySource(source)
                .commandTimeout(timeout)
                .connectTimeout(Duration.ofSeconds(1))
                .retry(retry)
                .commandListener(
                    new CommandListener() {
                      @Override
                      public void commandEnded(CommandEvent event) {
                        listener.accept(event);
                      }
                    })
                .build());
    return client.connect().async();
  }

  private static int shardOf(String key) {
    return ROUTER.shardOfUtf8(key);
  }

  /** The {@code skip}+1-th key of the form {@code key-N} whose shard passes the test. */
  private static String key(IntPredicate shard, int skip) {
    int found = 0;
    for (int index = 0; index < 100_000; index++) {
      String key = "key-" + index;
      if (shard.test(shardOf(key)) && found++ == skip) {
        return key;
      }
    }
    throw new AssertionError("no key for the shard test");
  }

  /**
   * Waits (bounded) until a part of {@code command} failed on each of these nodes, in any order.
   */
  private void awaitFailedParts(String command, String... nodeIds) throws InterruptedException {
    Set<String> waiting = new HashSet<>(List.of(nodeIds));
    long end = System.nanoTime() + WAIT.toNanos();
    while (!waiting.isEmpty()) {
      CommandEvent event = events.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (event == null) {
        throw new AssertionError("no part of " + command + " failed on " + waiting + " in " + WAIT);
      }
      if (event.command().equals(command) && !event.success()) {
        waiting.remove(event.nodeId());
      }
    }
  }

  /** The future's failure, which must be a {@link FanOutFailedException} within the time. */
  private static FanOutFailedException fanOutFailure(CompletableFuture<?> future, Duration within) {
    assertThat(future)
        .failsWithin(within)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(FanOutFailedException.class);
    return (FanOutFailedException) catchThrowable(future::join).getCause();
  }

  /** Holds this thread until {@code left} (plus a margin) has passed on the clock. */
  private static void passTheDeadline(Duration left) {
    long end = System.nanoTime() + left.toNanos() + TimeUnit.MILLISECONDS.toNanos(20);
    for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
      LockSupport.parkNanos(end - now);
    }
  }

  /** A port that was free a moment ago: nothing listens there. */
  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
