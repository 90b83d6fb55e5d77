package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.RetryOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.Ports;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.testkit.Resp;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A dispatched command whose first try was refused (READONLY from a leader that was demoted) is
 * sent again to the new leader once the map moves, and the caller's output gets the new leader's
 * reply only: nothing of the refused try.
 */
class DriverCommandsDispatchRetryIT {

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  private static DriverCommandsCluster c;

  @BeforeAll
  static void start() throws Exception {
    c =
        DriverCommandsCluster.start(
            fixture,
            options ->
                options
                    .commandTimeout(Duration.ofSeconds(20))
                    .retry(RetryOptions.builder().topologyWait(Duration.ofSeconds(15)).build()));
  }

  @Test
  void should_send_a_refused_dispatch_again_to_the_new_leader_and_fill_the_output_once()
      throws Exception {
    String key = "moving:h";
    int shard = c.shardOf(key);
    RedisProcess oldLeader = c.owner(key);
    int newIndex = (shard + 1) % c.cluster.leaders().size();
    RedisProcess newLeader = c.cluster.leader(newIndex);
    // Given the shard's leader demoted to a replica (of a master that does not answer, so it
    // keeps its data and refuses writes with READONLY)
    assertThat(oldLeader.call("REPLICAOF", "127.0.0.1", Integer.toString(Ports.free())))
        .isEqualTo("OK");
    try {
      assertThat(oldLeader.call("SET", "probe", "x")).isInstanceOf(Resp.Error.class);
      long refusedBefore = readOnlyErrors(oldLeader);

      // When a command is dispatched while the map still names the old leader
      BooleanOutput<String, String> output = new BooleanOutput<>(StringCodec.UTF8);
      CompletableFuture<Boolean> answer =
          c.async
              .dispatch(
                  key,
                  CommandType.HSETNX,
                  output,
                  new CommandArgs<>(StringCodec.UTF8).addKey(key).addKey("f").addValue("v"))
              .toCompletableFuture();
      Poll.until(
          Duration.ofSeconds(10),
          "the old leader to refuse the first try",
          () -> readOnlyErrors(oldLeader) > refusedBefore);
      assertThat(answer).isNotDone();
      assertThat(output.hasError()).isFalse();
      assertThat(output.get()).isNull();

      // and the map then moves the shard to another leader
      c.cluster.putValue(
          LocalCluster.shardKey(shard),
          LocalCluster.assignmentJson(LocalCluster.leaderId(newIndex), List.of(), 1));

      // Then the command runs there, once, and the caller's output holds its answer only
      assertThat(answer.get(15, TimeUnit.SECONDS)).isTrue();
      assertThat(output.get()).isTrue();
      assertThat(output.hasError()).isFalse();
      assertThat(newLeader.call("HGET", key, "f")).isEqualTo("v");
      assertThat(oldLeader.call("EXISTS", key)).isEqualTo(0L);
    } finally {
      oldLeader.call("REPLICAOF", "NO", "ONE");
    }
  }

  /** How many commands the node refused with READONLY since it started. */
  private static long readOnlyErrors(RedisProcess node) throws IOException {
    String info = (String) node.call("INFO", "errorstats");
    for (String line : info.split("\r\n")) {
      if (line.startsWith("errorstat_READONLY:count=")) {
        String count = line.substring("errorstat_READONLY:count=".length());
        int comma = count.indexOf(',');
        return Long.parseLong(comma < 0 ? count : count.substring(0, comma));
      }
    }
    return 0;
  }
}
