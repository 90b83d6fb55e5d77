package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The extension: one cluster for the class, a ready client per test. */
@JumpgateTest(nodes = 3, replicasPerNode = 1, shards = 64, cluster = "extension")
class JumpgateExtensionTest {

  @Test
  void should_land_each_key_on_the_leader_that_routing_names(
      LocalCluster cluster, JumpgateClient client) {
    assertThat(cluster.cluster()).isEqualTo("extension");
    assertThat(cluster.leaders()).hasSize(3);
    assertThat(cluster.nodes()).hasSize(6);
    JumpgateCommands<String, String> redis = client.connect().sync();
    TopologyAdminState state;
    try (TopologyAdmin admin = cluster.newAdmin()) {
      state = admin.read();
    }
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(64);
    int[] perLeader = new int[3];
    for (int index = 0; index < 300; index++) {
      String key = "key:" + index;
      redis.set(key, "value-" + index);
      String leaderId = state.assignments().get(router.shardOfUtf8(key)).leader();
      for (LocalNode leader : cluster.leaders()) {
        String stored = get(leader, key);
        if (leader.id().equals(leaderId)) {
          assertThat(stored).as("%s on its leader %s", key, leaderId).isEqualTo("value-" + index);
          perLeader[Integer.parseInt(leaderId.substring("leader-".length()))]++;
        } else {
          assertThat(stored).as("%s on %s, not its leader", key, leader.id()).isEmpty();
        }
      }
      assertThat(redis.get(key)).isEqualTo("value-" + index);
    }
    assertThat(java.util.Arrays.stream(perLeader).min().orElseThrow()).isGreaterThan(50);
  }

  @Test
  void should_give_each_test_the_class_cluster_and_a_new_client(
      LocalCluster cluster, JumpgateClient client) {
    assertThat(client.options().etcd().orElseThrow().cluster()).isEqualTo(cluster.cluster());
    assertThat(client.topology().shardCount()).isEqualTo(64);
  }

  private static String get(LocalNode node, String key) {
    try {
      // a missing key reads as ""
      return java.util.Objects.toString(
          Resp.call(node.port(), Duration.ofSeconds(2), "GET", key), "");
    } catch (IOException e) {
      throw new IllegalStateException(node.id() + ": " + e, e);
    }
  }
}
