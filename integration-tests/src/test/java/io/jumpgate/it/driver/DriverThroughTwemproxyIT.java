package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.CommandEvent;
import io.jumpgate.driver.CommandListener;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.it.fixture.TwemproxyProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes that are RESP servers but not Redis: every shard leader is a twemproxy in front of one
 * redis-server. twemproxy closes a connection on {@code HELLO} and {@code CLIENT SETINFO}, which
 * Lettuce 7 sends by default; the driver's handshake (RESP2, no library name, no maintenance
 * notifications) must work through it.
 */
class DriverThroughTwemproxyIT {

  private static final int SHARDS = 64;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_route_reads_writes_and_fan_outs_through_nodes_that_are_not_redis() throws Exception {
    // Given two leaders, each reached only through a twemproxy of its own
    LocalCluster cluster = LocalCluster.start(fixture, "tw", SHARDS, 2, 0);
    TwemproxyProcess proxy0 = fixture.twemproxy(cluster.leader(0));
    TwemproxyProcess proxy1 = fixture.twemproxy(cluster.leader(1));
    cluster.putValues(
        Map.of(
            "nodes/" + LocalCluster.leaderId(0),
            "{\"host\":\"127.0.0.1\",\"port\":" + proxy0.port() + "}",
            "nodes/" + LocalCluster.leaderId(1),
            "{\"host\":\"127.0.0.1\",\"port\":" + proxy1.port() + "}"));
    Set<String> addresses = ConcurrentHashMap.newKeySet();
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                cluster
                    .clientOptions()
                    .commandTimeout(Duration.ofSeconds(5))
                    // twemproxy refuses CLIENT SETNAME
                    .connectionNames(false)
                    .commandListener(
                        new CommandListener() {
                          @Override
                          public void commandEnded(CommandEvent event) {
                            addresses.add(event.address());
                          }
                        })
                    .build()));
    JumpgateCommands<String, String> redis = client.connect().sync();

    // When single-key commands and fan-outs go through the proxies
    Map<String, String> values = new LinkedHashMap<>();
    for (int index = 0; index < 200; index++) {
      values.put("tw:" + index, "value-" + index);
    }
    assertThat(redis.set("tw:single", "one")).isEqualTo("OK");
    assertThat(redis.get("tw:single")).isEqualTo("one");
    assertThat(redis.incr("tw:counter")).isEqualTo(1L);
    assertThat(redis.incr("tw:counter")).isEqualTo(2L);
    assertThat(redis.mset(values)).isEqualTo("OK");
    List<KeyValue<String, String>> read = redis.mget(values.keySet().toArray(String[]::new));

    // Then every answer is right and every key is on its shard's redis-server
    assertThat(read).hasSize(200);
    for (KeyValue<String, String> entry : read) {
      assertThat(entry.getValue()).isEqualTo(values.get(entry.getKey()));
    }
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    for (String key : values.keySet()) {
      RedisProcess owner = cluster.initialLeaderOf(router.shardOfUtf8(key));
      assertThat(owner.call("GET", key)).as(key).isEqualTo(values.get(key));
    }
    assertThat(redis.del(values.keySet().toArray(String[]::new))).isEqualTo(200L);
    assertThat(redis.exists("tw:0", "tw:199")).isZero();
    // and the driver reached the nodes only through the proxies
    assertThat(addresses).containsExactlyInAnyOrder(proxy0.address(), proxy1.address());
  }

  @Test
  void should_show_that_lettuce_default_handshake_does_not_work_through_twemproxy()
      throws Exception {
    // The control: what the driver's handshake avoids. If a twemproxy release ever accepts HELLO,
    // this test fails and the note in docs/driver.md should change.
    RedisProcess redis = fixture.redis();
    TwemproxyProcess proxy = fixture.twemproxy(redis);
    RedisClient lettuce = RedisClient.create();
    try {
      assertThatThrownBy(
              () ->
                  lettuce
                      .connect(
                          RedisURI.builder()
                              .withHost("127.0.0.1")
                              .withPort(proxy.port())
                              .withTimeout(Duration.ofSeconds(5))
                              .build())
                      .sync()
                      .ping())
          .isInstanceOf(io.lettuce.core.RedisException.class);
    } finally {
      lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }
}
