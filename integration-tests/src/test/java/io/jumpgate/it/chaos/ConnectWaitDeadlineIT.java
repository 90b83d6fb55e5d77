package io.jumpgate.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.SilentNode;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Found by the chaos run: a command's first try waited for its node's connection as long as the
 * connect timeout allows, past the command's own (shorter) deadline. Against a node that accepts
 * TCP connections but never answers the connection's handshake (AUTH), a command must still end by
 * its deadline.
 */
// Runs alone (the "alone" run in integration-tests/pom.xml): a call within 400 ms of its deadline
@Tag("timing-sensitive")
class ConnectWaitDeadlineIT {

  private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

  /**
   * What a call may take beyond its deadline: Lettuce's timer ticks every 100 ms, and the caller's
   * thread has to be scheduled on a shared 2-core machine. Far below the connect timeout.
   */
  private static final long MARGIN_MILLIS = 400;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_end_a_command_by_its_deadline_while_its_node_connection_is_still_being_made()
      throws Exception {
    try (SilentNode silent = SilentNode.start()) {
      EtcdCluster etcd = fixture.etcd();
      silent.writeMap(etcd, "silent", 4);
      JumpgateCommands<String, String> redis =
          fixture
              .register(
                  JumpgateClient.create(
                      JumpgateOptions.builder()
                          .etcd(
                              EtcdTopologyOptions.builder()
                                  .endpoints(etcd.endpointList())
                                  .cluster("silent")
                                  .build())
                          .redisPassword("the-handshake-never-ends")
                          .commandTimeout(COMMAND_TIMEOUT)
                          .connectTimeout(CONNECT_TIMEOUT)
                          .build()))
              .connect()
              .sync();
      for (int round = 0; round < 3; round++) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> redis.incr("counter")).isInstanceOf(CommandTimeoutException.class);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(
            "INCR against a node that never finishes connecting: %d ms%n", tookMillis);
        assertThat(tookMillis).isLessThan(COMMAND_TIMEOUT.toMillis() + MARGIN_MILLIS);
      }
    }
  }
}
