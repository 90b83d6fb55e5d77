package io.jumpgate.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spring.data.JumpgateConnectionFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Boot's own {@code ReactiveStringRedisTemplate} (from {@code
 * spring-boot-starter-data-redis}) on the starter's {@link JumpgateConnectionFactory} as the {@link
 * ReactiveRedisConnectionFactory}, against a real etcd and three real redis-servers on 127.0.0.1:
 * nothing is sent before a subscription, every key lands on the leader the routing core names for
 * it (checked with a connection of the test's own on every node), the value, hash, list, set and
 * sorted-set operations answer as Redis does, MGET/MSET/DEL and SCAN cover the three nodes, and
 * refused commands fail naming the command with nothing sent.
 */
class ReactiveSpringDataRedisIT {

  private static final int SHARDS = 64;
  private static final int KEYS = 120;
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void should_route_reactive_template_commands_to_their_shards_leaders() throws Exception {
    try (LocalNodes nodes = LocalNodes.start("default", SHARDS, 3);
        ConfigurableApplicationContext app = start(nodes)) {
      ReactiveStringRedisTemplate template = app.getBean(ReactiveStringRedisTemplate.class);
      JumpgateClient client = app.getBean(JumpgateClient.class);
      @SuppressWarnings("unchecked")
      JumpgateCommands<String, String> driver = app.getBean(JumpgateCommands.class);
      Placement placement = new Placement(nodes, client);

      // Boot's reactive templates sit on Jumpgate's factory
      ReactiveRedisConnectionFactory factory = app.getBean(ReactiveRedisConnectionFactory.class);
      assertThat(factory).isInstanceOf(JumpgateConnectionFactory.class);
      assertThat(template.getConnectionFactory()).isSameAs(factory);
      assertThat(
              app.getBean("reactiveRedisTemplate", ReactiveRedisTemplate.class)
                  .getConnectionFactory())
          .isSameAs(factory);

      // nothing is sent before a subscription: a Mono never subscribed leaves the key absent
      Mono<Boolean> unsent = template.opsForValue().set("lazy:1", "never");
      Mono<Boolean> later = template.opsForValue().set("lazy:2", "later");
      assertThat(unsent).isNotNull();
      for (String node : nodes.redisPorts().keySet()) {
        assertThat(nodes.holds(node, "lazy:1")).as("lazy:1 on %s", node).isFalse();
        assertThat(nodes.holds(node, "lazy:2")).as("lazy:2 on %s", node).isFalse();
      }
      assertThat(later.block(WAIT)).isTrue();
      placement.assertOnLeaderOnly("lazy:2");
      assertThat(driver.get("lazy:1")).isNull();

      // opsForValue: each key on its leader only, read back by the template and the driver
      List<String> keys = new ArrayList<>();
      for (int index = 0; index < KEYS; index++) {
        keys.add("user:" + index);
      }
      List<Boolean> written =
          Flux.fromIterable(keys)
              .concatMap(key -> template.opsForValue().set(key, "name-" + key.substring(5)))
              .collectList()
              .block(WAIT);
      assertThat(written).hasSize(KEYS).containsOnly(true);
      Set<String> leadersUsed = new HashSet<>();
      for (String key : keys) {
        leadersUsed.add(placement.assertOnLeaderOnly(key));
        assertThat(template.opsForValue().get(key).block(WAIT)).isEqualTo(driver.get(key));
      }
      assertThat(leadersUsed).containsExactlyInAnyOrderElementsOf(nodes.redisPorts().keySet());
      assertThat(template.opsForValue().get("missing:0").blockOptional(WAIT)).isEmpty();

      // SET with options, GETSET, APPEND, INCR/DECR
      assertThat(template.opsForValue().set("session:1", "s", Duration.ofSeconds(100)).block(WAIT))
          .isTrue();
      String sessionLeader = placement.assertOnLeaderOnly("session:1");
      assertThat(nodes.pttl(sessionLeader, "session:1")).isBetween(1L, 100_000L);
      assertThat(template.opsForValue().setIfAbsent("session:1", "other").block(WAIT)).isFalse();
      assertThat(template.opsForValue().setIfPresent("session:1", "s2").block(WAIT)).isTrue();
      assertThat(template.opsForValue().setIfAbsent("session:2", "n").block(WAIT)).isTrue();
      assertThat(template.opsForValue().getAndSet("session:2", "m").block(WAIT)).isEqualTo("n");
      assertThat(template.opsForValue().append("session:2", "-x").block(WAIT)).isEqualTo(3);
      assertThat(driver.get("session:2")).isEqualTo("m-x");
      assertThat(template.opsForValue().increment("counter:1").block(WAIT)).isEqualTo(1);
      assertThat(template.opsForValue().increment("counter:1", 41).block(WAIT)).isEqualTo(42);
      assertThat(template.opsForValue().decrement("counter:1", 2).block(WAIT)).isEqualTo(40);
      assertThat(template.opsForValue().increment("counter:1", 0.5).block(WAIT)).isEqualTo(40.5);
      placement.assertOnLeaderOnly("counter:1");

      // MGET over the three nodes, in request order, null for a missing key
      List<String> asked = new ArrayList<>(keys);
      asked.add(1, "missing:1");
      List<String> values = template.opsForValue().multiGet(asked).block(WAIT);
      assertThat(values).hasSize(KEYS + 1);
      assertThat(values.get(0)).isEqualTo("name-0");
      assertThat(values.get(1)).isNull();
      assertThat(values.get(KEYS)).isEqualTo("name-" + (KEYS - 1));

      // MSET split over the nodes, each key on its leader
      Map<String, String> batch = new LinkedHashMap<>();
      for (int index = 0; index < 30; index++) {
        batch.put("batch:" + index, "b-" + index);
      }
      assertThat(template.opsForValue().multiSet(batch).block(WAIT)).isTrue();
      Set<String> batchLeaders = new HashSet<>();
      for (Map.Entry<String, String> entry : batch.entrySet()) {
        batchLeaders.add(placement.assertOnLeaderOnly(entry.getKey()));
        assertThat(driver.get(entry.getKey())).isEqualTo(entry.getValue());
      }
      assertThat(batchLeaders).hasSize(3);

      // hashes
      assertThat(template.opsForHash().put("profile:42", "name", "Ada").block(WAIT)).isTrue();
      assertThat(
              template
                  .opsForHash()
                  .putAll("profile:42", Map.of("lang", "en", "age", "36"))
                  .block(WAIT))
          .isTrue();
      assertThat(template.opsForHash().get("profile:42", "name").block(WAIT)).isEqualTo("Ada");
      assertThat(template.opsForHash().entries("profile:42").collectList().block(WAIT))
          .extracting(Map.Entry::getKey)
          .containsExactlyInAnyOrder("name", "lang", "age");
      assertThat(template.opsForHash().multiGet("profile:42", List.of("name", "none")).block(WAIT))
          .containsExactly("Ada", null);
      assertThat(template.opsForHash().increment("profile:42", "age", 1).block(WAIT)).isEqualTo(37);
      assertThat(template.opsForHash().hasKey("profile:42", "lang").block(WAIT)).isTrue();
      assertThat(template.opsForHash().remove("profile:42", "lang").block(WAIT)).isEqualTo(1);
      assertThat(template.opsForHash().size("profile:42").block(WAIT)).isEqualTo(2);
      assertThat(template.opsForHash().keys("profile:42").collectList().block(WAIT))
          .containsExactlyInAnyOrder("name", "age");
      assertThat(driver.hget("profile:42", "age")).isEqualTo("37");
      placement.assertOnLeaderOnly("profile:42");

      // lists
      assertThat(template.opsForList().rightPushAll("queue:1", "a", "b", "c").block(WAIT))
          .isEqualTo(3);
      assertThat(template.opsForList().leftPush("queue:1", "z").block(WAIT)).isEqualTo(4);
      assertThat(template.opsForList().range("queue:1", 0, -1).collectList().block(WAIT))
          .containsExactly("z", "a", "b", "c");
      assertThat(template.opsForList().index("queue:1", 1).block(WAIT)).isEqualTo("a");
      assertThat(template.opsForList().size("queue:1").block(WAIT)).isEqualTo(4);
      assertThat(template.opsForList().leftPop("queue:1").block(WAIT)).isEqualTo("z");
      assertThat(template.opsForList().rightPop("queue:1").block(WAIT)).isEqualTo("c");
      assertThat(template.opsForList().trim("queue:1", 0, 0).block(WAIT)).isTrue();
      assertThat(driver.lrange("queue:1", 0, -1)).containsExactly("a");
      placement.assertOnLeaderOnly("queue:1");

      // sets
      assertThat(template.opsForSet().add("tags:1", "red", "green", "blue").block(WAIT))
          .isEqualTo(3);
      assertThat(template.opsForSet().isMember("tags:1", "green").block(WAIT)).isTrue();
      assertThat(template.opsForSet().remove("tags:1", "green").block(WAIT)).isEqualTo(1);
      assertThat(template.opsForSet().members("tags:1").collectList().block(WAIT))
          .containsExactlyInAnyOrder("red", "blue");
      assertThat(template.opsForSet().size("tags:1").block(WAIT)).isEqualTo(2);
      placement.assertOnLeaderOnly("tags:1");

      // sorted sets
      assertThat(template.opsForZSet().add("board:1", "ann", 10).block(WAIT)).isTrue();
      assertThat(template.opsForZSet().add("board:1", "bob", 20).block(WAIT)).isTrue();
      assertThat(template.opsForZSet().add("board:1", "cid", 30).block(WAIT)).isTrue();
      assertThat(template.opsForZSet().incrementScore("board:1", "ann", 25).block(WAIT))
          .isEqualTo(35.0);
      assertThat(template.opsForZSet().score("board:1", "bob").block(WAIT)).isEqualTo(20.0);
      assertThat(
              template
                  .opsForZSet()
                  .range("board:1", Range.closed(0L, -1L))
                  .collectList()
                  .block(WAIT))
          .containsExactly("bob", "cid", "ann");
      assertThat(
              template
                  .opsForZSet()
                  .reverseRange("board:1", Range.closed(0L, 1L))
                  .collectList()
                  .block(WAIT))
          .containsExactly("ann", "cid");
      assertThat(
              template
                  .opsForZSet()
                  .rangeWithScores("board:1", Range.closed(0L, 0L))
                  .map(tuple -> tuple.getValue() + "=" + tuple.getScore())
                  .collectList()
                  .block(WAIT))
          .containsExactly("bob=20.0");
      assertThat(
              template
                  .opsForZSet()
                  .rangeByScore("board:1", Range.closed(20.0, 30.0))
                  .collectList()
                  .block(WAIT))
          .containsExactly("bob", "cid");
      assertThat(
              template
                  .opsForZSet()
                  .rangeByScore("board:1", Range.rightOpen(20.0, 30.0))
                  .collectList()
                  .block(WAIT))
          .containsExactly("bob");
      assertThat(template.opsForZSet().count("board:1", Range.closed(25.0, 40.0)).block(WAIT))
          .isEqualTo(2);
      assertThat(template.opsForZSet().rank("board:1", "ann").block(WAIT)).isEqualTo(2);
      assertThat(template.opsForZSet().reverseRank("board:1", "ann").block(WAIT)).isZero();
      assertThat(template.opsForZSet().remove("board:1", "cid").block(WAIT)).isEqualTo(1);
      assertThat(template.opsForZSet().size("board:1").block(WAIT)).isEqualTo(2);
      placement.assertOnLeaderOnly("board:1");

      // keys: EXPIRE, TTL, EXISTS
      assertThat(template.expire("user:3", Duration.ofSeconds(50)).block(WAIT)).isTrue();
      assertThat(nodes.pttl(placement.leaderOf("user:3"), "user:3")).isBetween(1L, 50_000L);
      assertThat(template.getExpire("user:3").block(WAIT))
          .isBetween(Duration.ofSeconds(1), Duration.ofSeconds(50));
      assertThat(template.hasKey("user:3").block(WAIT)).isTrue();
      assertThat(template.hasKey("missing:2").block(WAIT)).isFalse();

      // SCAN over the cluster: every user key once, in pages of at most 10 per node
      List<String> scanned =
          template
              .scan(ScanOptions.scanOptions().match("user:*").count(10).build())
              .collectList()
              .block(WAIT);
      assertThat(scanned)
          .hasSize(KEYS)
          .doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(keys);

      // DEL of many keys split over the nodes, counts summed; DBSIZE summed over the leaders
      assertThat(template.delete(keys.subList(0, 60).toArray(String[]::new)).block(WAIT))
          .isEqualTo(60);
      for (String key : keys.subList(0, 60)) {
        for (String node : nodes.redisPorts().keySet()) {
          assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isFalse();
        }
      }
      long onNodes = 0;
      for (String node : nodes.redisPorts().keySet()) {
        onNodes += nodes.dbsize(node);
      }
      ReactiveRedisConnection connection = factory.getReactiveConnection();
      assertThat(connection.serverCommands().dbSize().block(WAIT)).isEqualTo(onNodes);
      assertThat(connection.ping().block(WAIT)).isEqualTo("PONG");
      assertThat(connection.serverCommands().info("server").block(WAIT))
          .containsKey("redis_version");

      // Boot's reactive Redis health (preferred when a reactive factory exists) reads INFO here
      Object redisHealth = app.getBean("redisHealthContributor");
      assertThat(redisHealth).isInstanceOf(ReactiveHealthIndicator.class);
      Health health = ((ReactiveHealthIndicator) redisHealth).health(true).block(WAIT);
      assertThat(health.getStatus()).as("%s", health.getDetails()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsKey("version");

      // RENAME in one hash tag works; across shards it is refused, nothing sent
      assertThat(template.opsForValue().set("{account:9}.old", "x").block(WAIT)).isTrue();
      assertThat(template.rename("{account:9}.old", "{account:9}.new").block(WAIT)).isTrue();
      assertThat(driver.get("{account:9}.new")).isEqualTo("x");
      Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
      String source = keys.get(100);
      String target = keyOnAnotherShard(router, source);
      assertThatThrownBy(() -> template.rename(source, target).block(WAIT))
          .isInstanceOf(InvalidDataAccessApiUsageException.class)
          .hasMessageContaining("RENAME needs all its keys on one shard")
          .hasMessageContaining("shard " + router.shardOf(bytes(source)) + " ")
          .hasMessageContaining("shard " + router.shardOf(bytes(target)) + " ")
          .hasMessageContaining("nothing was sent");
      assertThat(driver.get(source)).isEqualTo("name-100");
      assertThat(driver.exists(target)).isZero();

      // a command not routed yet: an error naming it, nothing sent
      assertThatThrownBy(() -> template.opsForHyperLogLog().add("visitors:1", "a").block(WAIT))
          .isInstanceOf(InvalidDataAccessApiUsageException.class)
          .hasMessageStartingWith("PFADD is not supported by Jumpgate's ReactiveRedisConnection")
          .hasMessageContaining("nothing was sent");
      for (String node : nodes.redisPorts().keySet()) {
        assertThat(nodes.holds(node, "visitors:1")).as("visitors:1 on %s", node).isFalse();
      }
      assertThatThrownBy(factory::getReactiveClusterConnection)
          .isInstanceOf(InvalidDataAccessApiUsageException.class)
          .hasMessageContaining("Jumpgate is not a Redis Cluster");

      // a server error comes out as Spring's, with Redis's message
      assertThatThrownBy(() -> template.opsForValue().get("profile:42").block(WAIT))
          .isInstanceOf(RedisSystemException.class)
          .hasMessageContaining("WRONGTYPE");
    }
  }

  /** Where keys are: the leader the routing core names, checked on every node. */
  private record Placement(LocalNodes nodes, JumpgateClient client) {

    String leaderOf(String key) {
      int shard = Xxh64JumpRouter.forShards(SHARDS).shardOf(bytes(key));
      return client.topology().route(shard).leader().id();
    }

    /** Checks the key is on its leader and on no other node; returns the leader. */
    String assertOnLeaderOnly(String key) throws IOException {
      String leader = leaderOf(key);
      for (String node : nodes.redisPorts().keySet()) {
        assertThat(nodes.holds(node, key))
            .as("%s (leader %s) on %s", key, leader, node)
            .isEqualTo(node.equals(leader));
      }
      return leader;
    }
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static String keyOnAnotherShard(Xxh64JumpRouter router, String key) {
    int shard = router.shardOf(bytes(key));
    for (int index = 0; ; index++) {
      String other = "renamed:" + index;
      if (router.shardOf(bytes(other)) != shard) {
        return other;
      }
    }
  }

  private static ConfigurableApplicationContext start(LocalNodes nodes) {
    return new SpringApplicationBuilder(DemoApplication.class)
        .properties(
            "spring.main.web-application-type=none",
            "spring.main.banner-mode=off",
            "jumpgate.etcd.endpoints=" + nodes.etcdEndpoint(),
            "jumpgate.etcd.request-timeout=2s",
            // the first command of each node waits for its connection; on a loaded 2-core
            // machine that took over the default 2 s once
            "jumpgate.timeout=5s")
        .run();
  }
}
