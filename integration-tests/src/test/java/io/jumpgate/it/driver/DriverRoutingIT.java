package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The driver against real etcd and redis-server nodes: every key on its shard's leader. */
class DriverRoutingIT {

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private JumpgateClient client(LocalCluster cluster) {
    return fixture.register(JumpgateClient.create(cluster.clientOptions().build()));
  }

  @Test
  void should_write_every_key_on_the_leader_of_its_shard() throws Exception {
    // Given 3 leaders over 1024 shards
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 0);
    JumpgateCommands<String, String> redis = client(cluster).connect().sync();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(1024);
    // When 300 keys are written through the driver
    for (int index = 0; index < 300; index++) {
      assertThat(redis.set("key:" + index, "value-" + index)).isEqualTo("OK");
    }
    // Then each key is on its shard's leader, and on no other node
    for (int index = 0; index < 300; index++) {
      String key = "key:" + index;
      RedisProcess owner = cluster.initialLeaderOf(router.shardOfUtf8(key));
      for (RedisProcess node : cluster.leaders()) {
        Object value = node.call("GET", key);
        assertThat(value)
            .as("%s on %s", key, node.address())
            .isEqualTo(node == owner ? "value-" + index : null);
      }
      assertThat(redis.get(key)).isEqualTo("value-" + index);
    }
  }

  @Test
  void should_answer_mget_of_1000_keys_across_nodes_in_request_order() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 0);
    JumpgateCommands<String, String> redis = client(cluster).connect().sync();
    Map<String, String> values = new LinkedHashMap<>();
    for (int index = 0; index < 1000; index++) {
      values.put("m:" + index, "v" + index);
    }
    assertThat(redis.mset(values)).isEqualTo("OK");
    List<String> keys = new ArrayList<>(values.keySet());
    keys.add(500, "missing-key");
    List<KeyValue<String, String>> answer = redis.mget(keys.toArray(String[]::new));
    assertThat(answer).hasSize(1001);
    for (int index = 0; index < keys.size(); index++) {
      KeyValue<String, String> entry = answer.get(index);
      assertThat(entry.getKey()).isEqualTo(keys.get(index));
      assertThat(entry.getValueOrElse(null)).isEqualTo(values.get(keys.get(index)));
    }
    assertThat(redis.mget()).isEmpty();
  }

  @Test
  void should_tell_the_command_listener_where_each_command_and_fan_out_part_went()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 0);
    java.util.Queue<io.jumpgate.driver.CommandEvent> events =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                cluster
                    .clientOptions()
                    .commandListener(
                        new io.jumpgate.driver.CommandListener() {
                          @Override
                          public void commandEnded(io.jumpgate.driver.CommandEvent event) {
                            events.add(event);
                          }
                        })
                    .build()));
    JumpgateCommands<String, String> redis = client.connect().sync();
    redis.set("user:42", "Ada");
    // The event is told before the call returns: no waiting needed
    io.jumpgate.driver.CommandEvent set = events.poll();
    assertThat(set.command()).isEqualTo("SET");
    assertThat(set.shard()).isEqualTo(717);
    assertThat(set.nodeId()).isEqualTo(LocalCluster.leaderId(717 % 3));
    assertThat(set.address()).isEqualTo(cluster.leader(717 % 3).address());
    assertThat(set.attempts()).isEqualTo(1);
    assertThat(set.success()).isTrue();
    // A fan-out over keys of every leader ends once per node
    String[] keys = new String[60];
    for (int index = 0; index < keys.length; index++) {
      keys[index] = "fan:" + index;
    }
    redis.mget(keys);
    assertThat(events).hasSize(3);
    assertThat(events).extracting(io.jumpgate.driver.CommandEvent::nodeId).doesNotHaveDuplicates();
  }

  @Test
  void should_count_increments_and_pass_server_errors_through_unchanged() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 64, 3, 0);
    JumpgateCommands<String, String> redis = client(cluster).connect().sync();
    for (int index = 0; index < 100; index++) {
      redis.incr("counter");
    }
    assertThat(redis.get("counter")).isEqualTo("100");
    redis.set("text", "abc");
    assertThatThrownBy(() -> redis.incr("text"))
        .isInstanceOf(RedisCommandExecutionException.class)
        .hasMessageContaining("not an integer");
    assertThatThrownBy(() -> redis.get(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
  }
}
