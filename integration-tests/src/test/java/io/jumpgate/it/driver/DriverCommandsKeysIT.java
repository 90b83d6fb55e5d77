package io.jumpgate.it.driver;

import static io.jumpgate.it.driver.DriverCommandsCluster.bool;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Key commands against real nodes: each answers as a plain Redis does, single-key ones on the key's
 * leader, and multi-key DEL, UNLINK, EXISTS and TOUCH over keys of every node sum right.
 */
class DriverCommandsKeysIT {

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  private static DriverCommandsCluster c;
  private static JumpgateCommands<String, String> redis;

  @BeforeAll
  static void start() throws Exception {
    c = DriverCommandsCluster.start(fixture);
    redis = c.sync;
  }

  /** Writes a string through the driver and on the reference. */
  private static void set(String key, String value) throws Exception {
    assertThat(redis.set(key, value)).isEqualTo("OK");
    c.plain("SET", key, value);
  }

  @Test
  void should_answer_exists_type_and_touch_of_one_key_as_redis_does() throws Exception {
    set("k:string", "v");
    c.plain("HSET", "k:hash", "f", "v");
    redis.hset("k:hash", "f", "v");

    for (String key : List.of("k:string", "k:hash", "k:missing")) {
      assertThat(redis.exists(key)).as(key).isEqualTo(c.plain("EXISTS", key));
      assertThat(redis.type(key)).as(key).isEqualTo(c.plain("TYPE", key));
      assertThat(redis.touch(key)).as(key).isEqualTo(c.plain("TOUCH", key));
    }
    assertThat(redis.type("k:hash")).isEqualTo("hash");
    assertThat(redis.type("k:missing")).isEqualTo("none");
    c.assertOnlyOnOwner("k:string");
    c.assertOnlyOnOwner("k:hash");
  }

  @Test
  void should_set_read_and_remove_expiries_as_redis_does() throws Exception {
    set("ttl:a", "1");
    set("ttl:b", "2");
    set("ttl:c", "3");

    assertThat(redis.ttl("ttl:a")).isEqualTo(c.plain("TTL", "ttl:a")).isEqualTo(-1L);
    assertThat(redis.pttl("ttl:missing")).isEqualTo(c.plain("PTTL", "ttl:missing")).isEqualTo(-2L);
    assertThat(redis.ttl("ttl:missing")).isEqualTo(-2L);

    assertThat(redis.expire("ttl:a", 100))
        .isEqualTo(bool(c.plain("EXPIRE", "ttl:a", "100")))
        .isTrue();
    assertThat(redis.ttl("ttl:a")).isBetween(90L, 100L);
    assertThat(redis.pexpire("ttl:b", 200_000))
        .isEqualTo(bool(c.plain("PEXPIRE", "ttl:b", "200000")))
        .isTrue();
    assertThat(redis.pttl("ttl:b")).isBetween(190_000L, 200_000L);
    long inAnHour = System.currentTimeMillis() / 1000 + 3600;
    assertThat(redis.expireat("ttl:c", inAnHour))
        .isEqualTo(bool(c.plain("EXPIREAT", "ttl:c", Long.toString(inAnHour))))
        .isTrue();
    assertThat(redis.ttl("ttl:c")).isBetween(3500L, 3600L);
    for (String key : List.of("ttl:a", "ttl:b", "ttl:c")) {
      c.assertOnlyOnOwner(key);
    }

    assertThat(redis.expire("ttl:missing", 10))
        .isEqualTo(bool(c.plain("EXPIRE", "ttl:missing", "10")))
        .isFalse();
    assertThat(redis.persist("ttl:a")).isEqualTo(bool(c.plain("PERSIST", "ttl:a"))).isTrue();
    assertThat(redis.persist("ttl:a")).isEqualTo(bool(c.plain("PERSIST", "ttl:a"))).isFalse();
    assertThat(redis.ttl("ttl:a")).isEqualTo(-1L);
    c.assertOnlyOnOwner("ttl:a");

    // a time in the past deletes the key
    assertThat(redis.expireat("ttl:c", 1))
        .isEqualTo(bool(c.plain("EXPIREAT", "ttl:c", "1")))
        .isTrue();
    assertThat(redis.exists("ttl:c")).isZero();
    c.assertNowhere("ttl:c");
  }

  @Test
  void should_delete_and_unlink_one_key_as_redis_does() throws Exception {
    set("del:a", "1");
    set("del:b", "2");
    assertThat(redis.del("del:a")).isEqualTo(c.plain("DEL", "del:a")).isEqualTo(1L);
    assertThat(redis.del("del:a")).isEqualTo(c.plain("DEL", "del:a")).isEqualTo(0L);
    assertThat(redis.unlink("del:b")).isEqualTo(c.plain("UNLINK", "del:b")).isEqualTo(1L);
    c.assertNowhere("del:a");
    c.assertNowhere("del:b");
  }

  @Test
  void should_sum_multi_key_counts_over_every_node_as_redis_does() throws Exception {
    // Given 200 keys, on every leader
    Map<String, String> values = new LinkedHashMap<>();
    for (int index = 0; index < 200; index++) {
      values.put("multi:" + index, "v" + index);
    }
    assertThat(redis.mset(values)).isEqualTo("OK");
    List<String> plainMset = new ArrayList<>(List.of("MSET"));
    values.forEach(
        (key, value) -> {
          plainMset.add(key);
          plainMset.add(value);
        });
    c.plain(plainMset.toArray(String[]::new));
    Set<RedisProcess> owners = new HashSet<>();
    for (String key : values.keySet()) {
      owners.add(c.owner(key));
    }
    assertThat(owners).hasSize(3);

    List<String> keys = new ArrayList<>(values.keySet());
    // EXISTS and TOUCH, with missing keys and a key named twice
    List<String> asked = new ArrayList<>(keys);
    asked.add("multi:missing-1");
    asked.add(keys.get(7));
    asked.add(3, "multi:missing-2");
    assertThat(redis.exists(asked.toArray(String[]::new)))
        .isEqualTo(c.plain(command("EXISTS", asked)))
        .isEqualTo(201L);
    assertThat(redis.touch(asked.toArray(String[]::new)))
        .isEqualTo(c.plain(command("TOUCH", asked)))
        .isEqualTo(201L);

    // a client that splits per shard sums the same
    try (JumpgateClient byShard =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .etcd(
                    EtcdTopologyOptions.builder()
                        .endpoints(c.cluster.etcd().endpointList())
                        .cluster(c.cluster.cluster())
                        .build())
                .fanOutGrouping(FanOutGrouping.BY_SHARD)
                .build())) {
      assertThat(byShard.connect().sync().exists(asked.toArray(String[]::new))).isEqualTo(201L);
    }

    // DEL of half, with missing keys; UNLINK of the other half, with a key already deleted
    List<String> firstHalf = new ArrayList<>(keys.subList(0, 100));
    firstHalf.add("multi:missing-3");
    assertThat(redis.del(firstHalf.toArray(String[]::new)))
        .isEqualTo(c.plain(command("DEL", firstHalf)))
        .isEqualTo(100L);
    List<String> secondHalf = new ArrayList<>(keys.subList(100, 200));
    secondHalf.add(keys.get(0));
    assertThat(redis.unlink(secondHalf.toArray(String[]::new)))
        .isEqualTo(c.plain(command("UNLINK", secondHalf)))
        .isEqualTo(100L);

    assertThat(redis.exists(keys.toArray(String[]::new)))
        .isEqualTo(c.plain(command("EXISTS", keys)))
        .isZero();
    for (RedisProcess node : c.cluster.leaders()) {
      assertThat(node.call(command("EXISTS", keys))).as(node.address()).isEqualTo(0L);
    }
  }

  private static String[] command(String name, List<String> keys) {
    List<String> command = new ArrayList<>();
    command.add(name);
    command.addAll(keys);
    return command.toArray(String[]::new);
  }
}
