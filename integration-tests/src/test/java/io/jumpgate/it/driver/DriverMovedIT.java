package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.RetriesExhaustedException;
import io.jumpgate.driver.ScriptedRespServer;
import io.jumpgate.driver.ScriptedRespServer.Reply;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Ports;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MOVED answers. Plain Redis never sends one, so the shard's leader here is the driver's scripted
 * RESP server ({@link ScriptedRespServer}, from the driver's test-jar) that answers every command
 * but PING with {@code -MOVED <slot> <address>}. A MOVED that names a node of the map is followed
 * at once (also for a non-idempotent INCR: a MOVED means the command did not run); one that names
 * an unknown address makes the command wait for a newer map, bounded by its deadline.
 */
class DriverMovedIT {

  private static final int SHARDS = 16;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_follow_a_moved_answer_that_names_a_known_node() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "moved", SHARDS, 2, 0);
    String key = "{moved}:key";
    int shard = Xxh64JumpRouter.forShards(SHARDS).shardOfUtf8(key);
    // The real owner after the redirect: the leader that does not lead this shard in the map
    int target = 1 - shard % 2;
    cluster.leader(target).call("SET", key, "on-the-target");
    try (ScriptedRespServer moved = movedServer(cluster.leader(target).address())) {
      pointShardAt(cluster, shard, moved);
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      JumpgateCommands<String, String> redis =
          client(cluster, Duration.ofSeconds(2), meters).connect().sync();

      assertThat(redis.get(key)).isEqualTo("on-the-target");
      assertThat(redis.incr("{moved}:counter")).isEqualTo(1L);

      assertThat(cluster.leader(target).call("GET", "{moved}:counter")).isEqualTo("1");
      assertThat(commandsBut(moved, "PING")).contains("GET " + key, "INCR {moved}:counter");
      assertThat(meters.get("jumpgate.redirects").counter().count()).isEqualTo(2.0);
    }
  }

  @Test
  void should_wait_for_a_newer_map_when_moved_names_an_unknown_address_then_give_up_at_deadline()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "moved", SHARDS, 2, 0);
    String key = "{moved}:key";
    int shard = Xxh64JumpRouter.forShards(SHARDS).shardOfUtf8(key);
    String nowhere = "127.0.0.1:" + Ports.free();
    try (ScriptedRespServer moved = movedServer(nowhere)) {
      pointShardAt(cluster, shard, moved);
      Duration timeout = Duration.ofMillis(1500);
      JumpgateCommands<String, String> redis =
          client(cluster, timeout, new SimpleMeterRegistry()).connect().sync();

      long start = System.nanoTime();
      assertThatThrownBy(() -> redis.get(key))
          .isInstanceOfAny(CommandTimeoutException.class, RetriesExhaustedException.class)
          .hasMessageContaining("MOVED");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      // It waited for a newer map instead of failing at once, and not past its deadline (the
      // margin is for a loaded 2-core machine)
      assertThat(took).isBetween(Duration.ofMillis(200), timeout.plusMillis(750));
      // The GET was sent to the MOVED server, not to the address it named
      assertThat(commandsBut(moved, "PING")).contains("GET " + key);
    }
  }

  private JumpgateClient client(
      LocalCluster cluster, Duration timeout, SimpleMeterRegistry meters) {
    return fixture.register(
        JumpgateClient.create(
            cluster.clientOptions().commandTimeout(timeout).meterRegistry(meters).build()));
  }

  private static void pointShardAt(LocalCluster cluster, int shard, ScriptedRespServer moved)
      throws Exception {
    cluster.putValues(
        Map.of(
            "nodes/mover",
            "{\"host\":\"127.0.0.1\",\"port\":" + moved.port() + "}",
            LocalCluster.shardKey(shard),
            LocalCluster.assignmentJson("mover", List.of(), 1)));
  }

  /**
   * A scripted RESP server (the driver's test double) that answers PING with PONG and every other
   * command with a MOVED to {@code address}.
   */
  private static ScriptedRespServer movedServer(String address) throws IOException {
    return ScriptedRespServer.start()
        .on("PING", Reply.with("+PONG\r\n"))
        .otherwise(Reply.error("MOVED 0 " + address));
  }

  /** The commands the server received but PING, each as one line of its words. */
  private static List<String> commandsBut(ScriptedRespServer server, String ping) {
    return server.commands().stream()
        .filter(command -> !command.get(0).equalsIgnoreCase(ping))
        .map(command -> String.join(" ", command))
        .toList();
  }
}
