package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.Outcome;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SADD leaves the same set when run twice but answers 1 then 0: after a try whose outcome is
 * unknown it is not sent again by default (a caller doing {@code if (sadd(seen, id) == 1)
 * process(id)} must not get the second run's 0), and is with {@link
 * RetryOptions#acceptSecondRunReplies()}.
 *
 * <p>The unknown outcome is made for real: the node is paused (SIGSTOP), the SADD is written and
 * waits unread in the node's socket, then the node is killed, so the driver loses the connection
 * after the write.
 */
class DriverSecondRunRepliesIT {

  private static final int SHARDS = 16;
  private static final int MAX_ATTEMPTS = 3;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_not_send_sadd_again_after_an_unknown_outcome_by_default() throws Exception {
    // Given a client with the default retry options (three tries)
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 1, 0);
    JumpgateAsyncCommands<String, String> redis = client(cluster, retry()).connect().async();

    // When an SADD is lost with its node after being written
    CommandFailedException failure = loseWrittenSadd(cluster.leader(0), redis);

    // Then it was tried once, and the caller learns that it may have run
    assertThat(failure.attempts()).as("tries of SADD: %s", failure.attempts()).hasSize(1);
    assertThat(failure.outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(failure.command()).isEqualTo("SADD");
  }

  @Test
  void should_send_sadd_again_after_an_unknown_outcome_when_second_run_replies_are_accepted()
      throws Exception {
    // Given a client that accepts a second run's reply
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 1, 0);
    JumpgateAsyncCommands<String, String> redis =
        client(cluster, retry().mutate().acceptSecondRunReplies(true).build()).connect().async();

    // When an SADD is lost with its node after being written
    CommandFailedException failure = loseWrittenSadd(cluster.leader(0), redis);

    // Then it was tried again after the lost first try (the node is gone: every later try fails)
    assertThat(failure.attempts())
        .as("tries of SADD: %s", failure.attempts())
        .hasSize(MAX_ATTEMPTS);
    assertThat(failure.attempts().get(1).number()).isEqualTo(2);
    // and the first try was written: whatever the later tries met, it may have run
    assertThat(failure.outcome()).as(failure.getMessage()).isEqualTo(Outcome.UNKNOWN);
  }

  private static RetryOptions retry() {
    return RetryOptions.builder()
        .maxAttempts(MAX_ATTEMPTS)
        .backoff(Duration.ofMillis(20), Duration.ofMillis(50))
        .build();
  }

  private JumpgateClient client(LocalCluster cluster, RetryOptions retry) {
    return fixture.register(
        JumpgateClient.create(
            cluster.clientOptions().commandTimeout(Duration.ofSeconds(10)).retry(retry).build()));
  }

  /**
   * Pauses the node, sends an SADD, waits until it sits unread in the node's socket, kills the
   * node, and returns how the SADD failed.
   */
  private static CommandFailedException loseWrittenSadd(
      RedisProcess node, JumpgateAsyncCommands<String, String> redis) throws Exception {
    String key = "seen";
    // the connection is open and idle
    assertThat(redis.sadd(key, "warm-up").toCompletableFuture().get(10, TimeUnit.SECONDS))
        .isEqualTo(1L);
    node.pause();
    CompletableFuture<Long> added = redis.sadd(key, "id-1").toCompletableFuture();
    Poll.until(
        Duration.ofSeconds(10),
        "the SADD to wait unread in the paused node's socket (port " + node.port() + ")",
        () -> unreadBytes(node.port()) > 0);
    node.kill9();
    try {
      Long answer = added.get(15, TimeUnit.SECONDS);
      throw new AssertionError("SADD answered " + answer + " from a node that was killed");
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(CommandFailedException.class);
      return (CommandFailedException) e.getCause();
    }
  }

  /**
   * Bytes received and not yet read by the process listening on 127.0.0.1:port, over its
   * established connections (from /proc/net/tcp: the rx_queue of each socket whose local port is
   * the node's).
   */
  private static long unreadBytes(int port) throws IOException {
    String localPort = ":" + String.format(Locale.ROOT, "%04X", port);
    long unread = 0;
    List<String> lines = Files.readAllLines(Path.of("/proc/net/tcp"));
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.trim().split("\\s+");
      boolean established = "01".equals(fields[3]);
      if (established && fields[1].endsWith(localPort)) {
        unread += Long.parseLong(fields[4].substring(fields[4].indexOf(':') + 1), 16);
      }
    }
    return unread;
  }
}
