package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.SilentNode;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * No connect storm: once a connect to a node failed, commands to it fail at once as not run while
 * the driver reconnects in the background, instead of each command starting a connect of its own
 * and waiting for it. The node here accepts TCP connections and never answers the handshake (AUTH),
 * so every connect fails at the connect timeout.
 */
// Runs alone (the "alone" run in integration-tests/pom.xml): fails fast within the connect timeout
@Tag("timing-sensitive")
class DriverNodeDownIT {

  private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(300);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_fail_fast_as_not_run_while_a_node_is_down_and_not_connect_per_command()
      throws Exception {
    try (SilentNode silent = SilentNode.start()) {
      EtcdCluster etcd = fixture.etcd();
      silent.writeMap(etcd, "down", 4);
      JumpgateCommands<String, String> redis =
          fixture
              .register(
                  JumpgateClient.create(
                      JumpgateOptions.builder()
                          .etcd(
                              EtcdTopologyOptions.builder()
                                  .endpoints(etcd.endpointList())
                                  .cluster("down")
                                  .build())
                          .registration(false)
                          .redisPassword("the-handshake-never-ends")
                          .commandTimeout(Duration.ofSeconds(2))
                          .connectTimeout(CONNECT_TIMEOUT)
                          .build()))
              .connect()
              .sync();
      // The first command meets the first connect and its failure.
      try {
        redis.incr("counter");
      } catch (CommandFailedException expected) {
        // the node is down
      }

      // Then: 20 commands in a row each fail at once, as not run
      long start = System.nanoTime();
      for (int command = 0; command < 20; command++) {
        long began = System.nanoTime();
        try {
          redis.incr("counter");
          throw new AssertionError("INCR answered by a node that never answers");
        } catch (CommandFailedException failure) {
          long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
          assertThat(failure)
              .as("INCR %d: %s", command, failure.getMessage())
              .isInstanceOf(NodeUnavailableException.class);
          assertThat(failure.mayHaveRun()).as("INCR %d may have run", command).isFalse();
          assertThat(tookMillis)
              .as("ms INCR %d took against a node that is down", command)
              .isLessThan(CONNECT_TIMEOUT.toMillis());
        }
      }
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      // and the connects are the driver's background ones (backoff from 100 ms), not one each
      System.out.printf(
          "20 INCRs to a down node took %d ms; connects: %d%n", tookMillis, silent.connections());
      assertThat(silent.connections()).as("connects to the down node").isLessThan(10);
    }
  }
}
