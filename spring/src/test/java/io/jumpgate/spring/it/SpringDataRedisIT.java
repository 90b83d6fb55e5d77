package io.jumpgate.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spring.data.JumpgateConnectionFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Spring Boot's own {@code StringRedisTemplate} (from {@code spring-boot-starter-data-redis}) on
 * the starter's {@link JumpgateConnectionFactory}, against a real etcd and three real redis-servers
 * on 127.0.0.1: every key lands on the leader the routing core names for it, multi-key commands and
 * SCAN cover the three nodes, a cross-shard RENAME is refused before anything is sent, and Boot's
 * Redis health reads INFO through the factory.
 *
 * <p>The application also sets {@code spring.data.redis.host}, which Jumpgate ignores and reports
 * at start-up.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringDataRedisIT {

  private static final int SHARDS = 64;
  private static final int KEYS = 200;

  private final ObjectMapper json = new ObjectMapper();

  @Test
  void should_route_string_redis_template_commands_to_their_shards_leaders(CapturedOutput output)
      throws Exception {
    try (LocalNodes nodes = LocalNodes.start("default", SHARDS, 3);
        ConfigurableApplicationContext app = start(nodes)) {
      StringRedisTemplate template = app.getBean(StringRedisTemplate.class);
      JumpgateClient client = app.getBean(JumpgateClient.class);
      @SuppressWarnings("unchecked")
      JumpgateCommands<String, String> driver = app.getBean(JumpgateCommands.class);

      // Boot's template sits on Jumpgate's factory; the ignored spring.data.redis.host is reported
      assertThat(app.getBean(RedisConnectionFactory.class))
          .isInstanceOf(JumpgateConnectionFactory.class);
      assertThat(template.getConnectionFactory())
          .isSameAs(app.getBean(RedisConnectionFactory.class));
      assertThat(output.getOut() + output.getErr())
          .contains("spring.data.redis settings are ignored: spring.data.redis.host=10.255.255.1");

      // opsForValue set/get; each key is on the leader the routing core names, and only there
      List<String> keys = new ArrayList<>();
      for (int index = 0; index < KEYS; index++) {
        String key = "user:" + index;
        keys.add(key);
        template.opsForValue().set(key, "name-" + index);
      }
      Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
      Set<String> nodesUsed = new HashSet<>();
      for (String key : keys) {
        int shard = router.shardOf(key.getBytes(StandardCharsets.UTF_8));
        String leader = client.topology().route(shard).leader().id();
        nodesUsed.add(leader);
        for (String node : nodes.redisPorts().keySet()) {
          assertThat(nodes.holds(node, key))
              .as("%s (shard %d, leader %s) on %s", key, shard, leader, node)
              .isEqualTo(node.equals(leader));
        }
        assertThat(template.opsForValue().get(key)).isEqualTo(driver.get(key));
      }
      assertThat(nodesUsed).containsExactlyInAnyOrderElementsOf(nodes.redisPorts().keySet());
      assertThat(template.opsForValue().get("user:7")).isEqualTo("name-7");

      // multiGet over the three nodes, in request order, null for a missing key
      List<String> asked = new ArrayList<>(keys);
      asked.add(1, "missing:1");
      List<String> values = template.opsForValue().multiGet(asked);
      assertThat(values).hasSize(KEYS + 1);
      assertThat(values.get(0)).isEqualTo("name-0");
      assertThat(values.get(1)).isNull();
      assertThat(values.get(KEYS)).isEqualTo("name-" + (KEYS - 1));

      // multiSet through the template, read back through the driver
      Map<String, String> batch = new HashMap<>();
      for (int index = 0; index < 30; index++) {
        batch.put("batch:" + index, "b-" + index);
      }
      template.opsForValue().multiSet(batch);
      batch.forEach((key, value) -> assertThat(driver.get(key)).isEqualTo(value));

      // hash operations on one key
      template.opsForHash().put("profile:42", "name", "Ada");
      template.opsForHash().putAll("profile:42", Map.of("lang", "en", "age", "36"));
      assertThat(template.opsForHash().get("profile:42", "name")).isEqualTo("Ada");
      assertThat(template.opsForHash().entries("profile:42"))
          .containsExactlyInAnyOrderEntriesOf(Map.of("name", "Ada", "lang", "en", "age", "36"));
      assertThat(template.opsForHash().increment("profile:42", "age", 1)).isEqualTo(37);
      assertThat(template.opsForHash().delete("profile:42", "lang")).isEqualTo(1);
      assertThat(driver.hget("profile:42", "age")).isEqualTo("37");

      // scan over the cluster: every user key once, in pages of at most 10 per node
      List<String> scanned = new ArrayList<>();
      try (Cursor<String> cursor =
          template.scan(ScanOptions.scanOptions().match("user:*").count(10).build())) {
        cursor.forEachRemaining(scanned::add);
      }
      assertThat(scanned)
          .hasSize(KEYS)
          .doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(keys);

      // delete(collection) split over the nodes, counts summed
      assertThat(template.delete(keys.subList(0, 100))).isEqualTo(100);
      assertThat(template.countExistingKeys(keys)).isEqualTo(KEYS - 100);
      long onNodes = 0;
      for (String node : nodes.redisPorts().keySet()) {
        onNodes += nodes.dbsize(node);
      }
      assertThat(onNodes).isEqualTo(KEYS - 100 + 30 + 1);

      // RENAME within one shard (one hash tag) works; across shards it is refused, nothing sent
      template.opsForValue().set("{account:9}.old", "x");
      template.rename("{account:9}.old", "{account:9}.new");
      assertThat(template.opsForValue().get("{account:9}.new")).isEqualTo("x");
      String source = keys.get(150);
      String target = keyOnAnotherShard(router, source);
      int sourceShard = router.shardOf(source.getBytes(StandardCharsets.UTF_8));
      int targetShard = router.shardOf(target.getBytes(StandardCharsets.UTF_8));
      assertThatThrownBy(() -> template.rename(source, target))
          .isInstanceOf(InvalidDataAccessApiUsageException.class)
          .hasMessageContaining("RENAME needs all its keys on one shard")
          .hasMessageContaining("shard " + sourceShard + " ")
          .hasMessageContaining("shard " + targetShard + " ")
          .hasMessageContaining("nothing was sent");
      assertThat(template.opsForValue().get(source)).isEqualTo("name-150");
      assertThat(template.hasKey(target)).isFalse();

      // Boot's Redis health reads INFO through the factory
      JsonNode health = health(app);
      assertThat(health.path("components").path("redis").path("status").asText())
          .as("%s", health)
          .isEqualTo("UP");
    }
  }

  private static String keyOnAnotherShard(Xxh64JumpRouter router, String key) {
    int shard = router.shardOf(key.getBytes(StandardCharsets.UTF_8));
    for (int index = 0; ; index++) {
      String other = "renamed:" + index;
      if (router.shardOf(other.getBytes(StandardCharsets.UTF_8)) != shard) {
        return other;
      }
    }
  }

  private JsonNode health(ConfigurableApplicationContext app) throws Exception {
    String base =
        "http://127.0.0.1:" + app.getEnvironment().getRequiredProperty("local.server.port");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base + "/actuator/health"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return json.readTree(response.body());
  }

  private static ConfigurableApplicationContext start(LocalNodes nodes) {
    return new SpringApplicationBuilder(DemoApplication.class)
        .properties(
            "server.port=0",
            "server.address=127.0.0.1",
            "spring.main.banner-mode=off",
            "management.endpoint.health.show-details=always",
            "jumpgate.etcd.endpoints=" + nodes.etcdEndpoint(),
            "jumpgate.etcd.request-timeout=2s",
            // ignored (the nodes come from the shard map) and reported at start-up
            "spring.data.redis.host=10.255.255.1")
        .run();
  }
}
