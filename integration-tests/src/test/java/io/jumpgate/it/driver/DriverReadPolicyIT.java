package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.CommandEvent;
import io.jumpgate.driver.CommandListener;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Read policies against real leaders and replicas: which node serves a read. */
class DriverReadPolicyIT {

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final Queue<CommandEvent> events = new ConcurrentLinkedQueue<>();

  private JumpgateCommands<String, String> connect(LocalCluster cluster, ReadPolicy policy) {
    return fixture
        .register(
            JumpgateClient.create(
                cluster
                    .clientOptions()
                    .readPolicy(policy)
                    .commandTimeout(Duration.ofSeconds(1))
                    .commandListener(
                        new CommandListener() {
                          @Override
                          public void commandEnded(CommandEvent event) {
                            events.add(event);
                          }
                        })
                    .build()))
        .connect()
        .sync();
  }

  @Test
  void should_read_from_replicas_and_write_to_leaders_under_the_replica_policy() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 64, 3, 1);
    JumpgateCommands<String, String> redis = connect(cluster, ReadPolicy.REPLICA);
    for (int index = 0; index < 50; index++) {
      redis.set("r:" + index, "v" + index);
    }
    // Then every write went to a leader
    assertThat(events).extracting(CommandEvent::nodeId).allMatch(id -> id.startsWith("leader-"));
    events.clear();
    // And, once replicated, every read is served by a replica with the right value
    Poll.until(
        Duration.ofSeconds(10),
        "the replicas to catch up",
        () ->
            "v49".equals(cluster.replicasOf(0).get(0).call("GET", "r:49"))
                || "v49".equals(cluster.replicasOf(1).get(0).call("GET", "r:49"))
                || "v49".equals(cluster.replicasOf(2).get(0).call("GET", "r:49")));
    for (int index = 0; index < 50; index++) {
      String value = redis.get("r:" + index);
      CommandEvent read = events.poll();
      assertThat(read.nodeId()).startsWith("replica-");
      if (value != null) {
        assertThat(value).isEqualTo("v" + index);
      }
    }
  }

  @Test
  void should_read_from_a_replica_while_the_leader_is_down_under_leader_preferred()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 64, 1, 1);
    JumpgateCommands<String, String> redis = connect(cluster, ReadPolicy.LEADER_PREFERRED);
    redis.set("p:1", "kept");
    assertThat(redis.get("p:1")).isEqualTo("kept");
    assertThat(events).extracting(CommandEvent::nodeId).containsOnly(LocalCluster.leaderId(0));
    Poll.until(
        Duration.ofSeconds(10),
        "the replica to catch up",
        () -> "kept".equals(cluster.replicasOf(0).get(0).call("GET", "p:1")));
    // When the leader dies, reads move to its replica (after the first failed try)
    cluster.leader(0).kill9();
    events.clear();
    Poll.until(
        Duration.ofSeconds(10),
        "a read to be served by the replica",
        () -> {
          try {
            return "kept".equals(redis.get("p:1"));
          } catch (RuntimeException stillOnTheLeader) {
            return false;
          }
        });
    assertThat(events)
        .filteredOn(CommandEvent::success)
        .extracting(CommandEvent::nodeId)
        .contains(LocalCluster.replicaId(0, 0));
  }
}
