package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The driver's failure paths through its public API against real etcd and redis-server processes: a
 * caller that gives up on its future never makes the driver send the command again, and an
 * exception never says "not run" for a command that was written before its node went away.
 */
class DriverFailurePathsIT {

  private static final int SHARDS = 16;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private JumpgateClient client(LocalCluster cluster) {
    return fixture.register(
        JumpgateClient.create(
            cluster
                .clientOptions()
                .commandTimeout(Duration.ofSeconds(1))
                .connectTimeout(Duration.ofMillis(500))
                .registration(false)
                .build()));
  }

  /** A key of shard 0, so its leader is known. */
  private static String keyOfShardZero() {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    for (int index = 0; ; index++) {
      String key = "k" + index;
      if (router.shardOfUtf8(key) == 0) {
        return key;
      }
    }
  }

  private static long getCalls(RedisProcess node) throws Exception {
    String stats = String.valueOf(node.call("INFO", "commandstats"));
    Matcher calls = Pattern.compile("cmdstat_get:calls=(\\d+)").matcher(stats);
    return calls.find() ? Long.parseLong(calls.group(1)) : 0;
  }

  @Test
  void should_never_send_a_command_again_after_the_caller_timed_out_its_future() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 0);
    JumpgateAsyncCommands<String, String> redis = client(cluster).connect().async();
    String key = keyOfShardZero();
    RedisProcess leader = cluster.initialLeaderOf(0);
    redis.get(key).toCompletableFuture().get(5, TimeUnit.SECONDS); // connected
    long before = getCalls(leader);

    leader.pause();
    long sent = System.nanoTime();
    CompletableFuture<String> answer = redis.get(key).toCompletableFuture();
    answer.orTimeout(100, TimeUnit.MILLISECONDS);
    try {
      answer.get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(TimeoutException.class);
    }
    // Proving that nothing more is sent needs the command's own deadline (1 s) to pass: any
    // retry the driver would make is written to the paused node's socket before it.
    Poll.until(
        Duration.ofSeconds(5),
        "the command's deadline to pass",
        () -> System.nanoTime() - sent > TimeUnit.MILLISECONDS.toNanos(1500));
    leader.resume();
    Poll.until(
        Duration.ofSeconds(5),
        "the paused node to run what it received",
        () -> getCalls(leader) >= before + 1);

    assertThat(getCalls(leader) - before)
        .as("GETs the node ran after the caller's orTimeout")
        .isEqualTo(1);
  }
}
