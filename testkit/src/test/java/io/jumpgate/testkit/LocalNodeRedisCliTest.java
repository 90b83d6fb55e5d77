package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link LocalNode#redisCli(String...)} against real redis-server processes of a local cluster. */
class LocalNodeRedisCliTest {

  private LocalCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void should_answer_what_the_node_holds_as_redis_cli_prints_it() {
    cluster = LocalCluster.builder().nodes(2).shards(16).start();
    try (JumpgateClient client = cluster.newClient()) {
      JumpgateCommands<String, String> redis = client.connect().sync();
      redis.set("user:42", "Ada Lovelace");
      redis.hset("profile:42", Map.of("name", "Ada"));
    }

    // Exactly one leader holds each key, and redis-cli reads it there.
    List<LocalNode> holders =
        cluster.leaders().stream()
            .filter(node -> node.redisCli("EXISTS", "user:42").equals("1"))
            .toList();
    assertThat(holders).hasSize(1);
    LocalNode holder = holders.get(0);
    for (LocalNode node : cluster.leaders()) {
      assertThat(node.redisCli("EXISTS", "user:42")).isEqualTo(node == holder ? "1" : "0");
    }
    assertThat(holder.redisCli("GET", "user:42")).isEqualTo("Ada Lovelace");
    assertThat(holder.redisCli("GET", "no-such-key")).isEmpty();
    LocalNode hashHolder =
        cluster.leaders().stream()
            .filter(node -> node.redisCli("EXISTS", "profile:42").equals("1"))
            .findFirst()
            .orElseThrow();
    assertThat(hashHolder.redisCli("HGETALL", "profile:42")).isEqualTo("name\nAda");
    assertThat(hashHolder.redisCli("PUBSUB", "NUMSUB", "news")).isEqualTo("news\n0");
  }

  @Test
  void should_name_the_node_the_command_and_the_answer_when_redis_answers_an_error() {
    cluster = LocalCluster.builder().nodes(1).shards(1).start();
    LocalNode node = cluster.node("leader-0");
    node.redisCli("SET", "user:1", "Ada");

    assertThatThrownBy(() -> node.redisCli("HGET", "user:1", "name"))
        .isInstanceOfSatisfying(
            RedisCliException.class,
            error -> {
              assertThat(error.command()).containsExactly("HGET", "user:1", "name");
              assertThat(error.output()).contains("WRONGTYPE");
            })
        .hasMessageContaining("redis-cli HGET user:1 name on leader-0 (" + node.address() + ")")
        .hasMessageContaining("exit status 1")
        .hasMessageContaining("WRONGTYPE");
  }

  @Test
  void should_fail_with_the_connection_error_when_the_node_is_down() {
    cluster = LocalCluster.builder().nodes(1).shards(1).start();
    LocalNode node = cluster.node("leader-0");
    node.kill();

    assertThatThrownBy(() -> node.redisCli("PING"))
        .isInstanceOf(RedisCliException.class)
        .hasMessageContaining("redis-cli PING on leader-0")
        .hasMessageContaining("Could not connect to Redis at " + node.address());
  }

  @Test
  void should_log_in_as_the_clusters_acl_user() {
    cluster = LocalCluster.builder().nodes(1).shards(1).redisUser("app", "s3cret").start();
    LocalNode node = cluster.node("leader-0");

    assertThat(node.redisCli("ACL", "WHOAMI")).isEqualTo("app");
    assertThat(node.redisCli("SET", "greeting", "hello")).isEqualTo("OK");
    assertThat(node.redisCli("GET", "greeting")).isEqualTo("hello");
  }

  @Test
  void should_refuse_a_call_without_a_command() {
    cluster = LocalCluster.builder().nodes(1).shards(1).start();
    LocalNode node = cluster.node("leader-0");

    assertThatThrownBy(() -> node.redisCli())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no command given");
    assertThatThrownBy(() -> node.redisCli("GET", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a null argument");
  }
}
