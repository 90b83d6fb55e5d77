package example.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spring.data.JumpgateConnectionFactory;
import io.jumpgate.testkit.LocalCluster;
import io.jumpgate.testkit.LocalNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.cache.CacheManager;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations;
import org.springframework.session.SessionRepository;
import org.springframework.session.data.redis.RedisSessionRepository;

/**
 * The Spring Boot 3.5 application on Spring Data Redis 3.5 and Jumpgate's factory, against a real
 * etcd and three redis-servers (jumpgate-testkit, 64 shards): every key the templates, the cache,
 * pub/sub and Spring Session's HTTP sessions touch is checked with redis-cli on every leader
 * (jumpgate-testkit's LocalNode.redisCli), present on its shard's leader (as the routing core and
 * the client's map name it) and on no other.
 */
class Boot35DataRedisTest {
  private static final int SHARDS = 64;

  private static LocalCluster cluster;
  private static ConfigurableApplicationContext app;
  private static StringRedisTemplate redis;
  private static String base;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    cluster = LocalCluster.builder().nodes(3).shards(SHARDS).start();
    try {
      app =
          SpringApplication.run(
              CatalogApplication.class,
              "--server.port=0",
              "--server.address=127.0.0.1",
              "--jumpgate.etcd.endpoints=" + cluster.etcdEndpoint(),
              "--jumpgate.cluster=" + cluster.cluster());
      redis = app.getBean(StringRedisTemplate.class);
      base = "http://127.0.0.1:" + app.getEnvironment().getRequiredProperty("local.server.port");
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  @AfterAll
  static void stop() {
    try {
      if (app != null) {
        app.close();
      }
    } finally {
      cluster.close();
    }
  }

  @Test
  void should_run_on_spring_data_redis_3_5_with_jumpgates_factory() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    assertThat(RedisConnectionFactory.class.getPackage().getImplementationVersion())
        .startsWith("3.5.");
    assertThat(app.getBean(RedisConnectionFactory.class))
        .isInstanceOf(JumpgateConnectionFactory.class);
    assertThat(redis.getConnectionFactory()).isSameAs(app.getBean(RedisConnectionFactory.class));
    assertThat(app.getBean(CacheManager.class)).isInstanceOf(RedisCacheManager.class);
  }

  @Test
  void should_keep_values_hashes_lists_sets_and_sorted_sets_on_their_leaders() {
    Set<String> leaders = new HashSet<>();
    for (int index = 0; index < 40; index++) {
      String key = "stock:sku-" + index;
      // SET with EX: Spring Data Redis 3.5 calls set(key, value, Expiration, SetOption)
      redis.opsForValue().set(key, Integer.toString(100 + index), Duration.ofMinutes(5));
      String leader = assertOnlyOnItsLeader(key);
      leaders.add(leader);
      assertThat(Long.parseLong(cli(leader, "PTTL", key))).isBetween(1L, 300_000L);
    }
    assertThat(leaders).hasSize(3);

    assertThat(redis.opsForValue().setIfAbsent("stock:sku-0", "1")).isFalse();
    assertThat(redis.opsForValue().setIfPresent("stock:sku-1", "7", Duration.ofMinutes(1)))
        .isTrue();
    assertThat(redis.opsForValue().increment("stock:sku-3")).isEqualTo(104L);
    List<String> keys = List.of("stock:sku-0", "stock:sku-1", "no", "stock:sku-39");
    assertThat(redis.opsForValue().multiGet(keys)).containsExactly("100", "7", null, "139");

    redis.opsForHash().putAll("product:sku-5", Map.of("name", "lamp", "colour", "green"));
    assertThat(redis.<String, String>opsForHash().entries("product:sku-5"))
        .containsExactlyInAnyOrderEntriesOf(Map.of("name", "lamp", "colour", "green"));
    assertThat(cli(assertOnlyOnItsLeader("product:sku-5"), "HGET", "product:sku-5", "name"))
        .isEqualTo("lamp");

    redis.opsForList().rightPushAll("history:sku-5", "made", "sold", "returned");
    assertThat(redis.opsForList().range("history:sku-5", 0, -1))
        .containsExactly("made", "sold", "returned");
    assertThat(cli(assertOnlyOnItsLeader("history:sku-5"), "LLEN", "history:sku-5"))
        .isEqualTo("3");

    redis.opsForSet().add("tags:sku-5", "light", "desk");
    assertThat(redis.opsForSet().members("tags:sku-5")).containsExactlyInAnyOrder("light", "desk");
    assertThat(cli(assertOnlyOnItsLeader("tags:sku-5"), "SCARD", "tags:sku-5")).isEqualTo("2");

    redis.opsForZSet().add("bestsellers", "sku-1", 2.0);
    redis.opsForZSet().add("bestsellers", "sku-2", 1.0);
    assertThat(redis.opsForZSet().rangeWithScores("bestsellers", 0, -1))
        .extracting(ZSetOperations.TypedTuple::getValue)
        .containsExactly("sku-2", "sku-1");
    assertThat(cli(assertOnlyOnItsLeader("bestsellers"), "ZSCORE", "bestsellers", "sku-1"))
        .isEqualTo("2");
  }

  @Test
  void should_scan_every_key_of_every_leader_once() {
    List<String> written = IntStream.range(0, 100).mapToObj(i -> "scan:" + i).toList();
    redis.opsForValue().multiSet(written.stream().collect(Collectors.toMap(k -> k, k -> "x")));
    Set<String> leaders = new HashSet<>();
    for (String key : written) {
      leaders.add(assertOnlyOnItsLeader(key));
    }
    assertThat(leaders).hasSize(3);

    List<String> seen = new ArrayList<>();
    try (Cursor<String> cursor =
        redis.scan(ScanOptions.scanOptions().match("scan:*").count(10).build())) {
      cursor.forEachRemaining(seen::add);
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(written);
  }

  @Test
  void should_pipeline_across_shards_with_the_answers_in_order() {
    List<String> keys = IntStream.range(0, 20).mapToObj(i -> "pipe:" + i).toList();
    List<Object> answers =
        redis.executePipelined(
            new SessionCallback<Object>() {
              @Override
              @SuppressWarnings("unchecked")
              public <K, V> Object execute(RedisOperations<K, V> operations) {
                RedisOperations<String, String> strings =
                    (RedisOperations<String, String>) operations;
                for (String key : keys) {
                  strings.opsForValue().set(key, "v-" + key, Duration.ofMinutes(1));
                }
                for (String key : keys) {
                  strings.opsForValue().get(key);
                }
                strings.opsForValue().increment("pipe:counter");
                return null;
              }
            });

    List<Object> expected = new ArrayList<>();
    keys.forEach(key -> expected.add(true));
    keys.forEach(key -> expected.add("v-" + key));
    expected.add(1L);
    assertThat(answers).containsExactlyElementsOf(expected);
    Set<String> leaders = new HashSet<>();
    for (String key : keys) {
      String leader = assertOnlyOnItsLeader(key);
      leaders.add(leader);
      assertThat(Long.parseLong(cli(leader, "PTTL", key))).isBetween(1L, 60_000L);
    }
    assertThat(leaders).hasSize(3);
  }

  @Test
  void should_run_watch_multi_exec_on_the_leader_of_one_shard() {
    List<Object> answers =
        redis.execute(
            new SessionCallback<List<Object>>() {
              @Override
              @SuppressWarnings("unchecked")
              public <K, V> List<Object> execute(RedisOperations<K, V> operations) {
                RedisOperations<String, String> strings =
                    (RedisOperations<String, String>) operations;
                strings.watch("{order:7}.total");
                strings.multi();
                strings.opsForValue().set("{order:7}.total", "30");
                strings.opsForList().rightPush("{order:7}.lines", "lamp");
                strings.opsForValue().increment("{order:7}.total");
                return strings.exec();
              }
            });

    assertThat(answers).containsExactly(true, 1L, 31L);
    String leader = assertOnlyOnItsLeader("{order:7}.total");
    assertThat(assertOnlyOnItsLeader("{order:7}.lines")).isEqualTo(leader);
    assertThat(cli(leader, "GET", "{order:7}.total")).isEqualTo("31");
  }

  @Test
  void should_refuse_a_transaction_and_a_rename_across_shards_before_sending_anything() {
    String first = "order:1";
    String second = keyOnAnotherShardThan(first);

    assertThatThrownBy(
            () ->
                redis.execute(
                    new SessionCallback<List<Object>>() {
                      @Override
                      @SuppressWarnings("unchecked")
                      public <K, V> List<Object> execute(RedisOperations<K, V> operations) {
                        RedisOperations<String, String> strings =
                            (RedisOperations<String, String>) operations;
                        strings.multi();
                        strings.opsForValue().set(first, "1");
                        strings.opsForValue().set(second, "2");
                        return strings.exec();
                      }
                    }))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageContaining("MULTI, SET, SET, EXEC needs all its keys on one shard")
        .hasMessageContaining("shard " + shardOf(first))
        .hasMessageContaining("shard " + shardOf(second));
    assertOnNoNode(first);
    assertOnNoNode(second);

    redis.opsForValue().set(first, "1");
    assertThatThrownBy(() -> redis.rename(first, second))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageContaining("RENAME needs all its keys on one shard")
        .hasMessageContaining("nothing was sent");
    assertOnlyOnItsLeader(first);
    assertOnNoNode(second);
  }

  @Test
  void should_cache_prices_on_the_leader_of_each_cache_key() {
    Prices prices = app.getBean(Prices.class);
    int before = prices.catalogueCalls();

    assertThat(prices.price("sku-12")).isEqualTo("EUR 42.00");
    assertThat(prices.price("sku-12")).isEqualTo("EUR 42.00");

    assertThat(prices.catalogueCalls()).isEqualTo(before + 1);
    String leader = assertOnlyOnItsLeader("prices::sku-12");
    // spring.cache.redis.time-to-live=10m
    assertThat(Long.parseLong(cli(leader, "PTTL", "prices::sku-12"))).isBetween(1L, 600_000L);

    prices.forget("sku-12");
    assertOnNoNode("prices::sku-12");
    assertThat(prices.price("sku-12")).isEqualTo("EUR 42.00");
    assertThat(prices.catalogueCalls()).isEqualTo(before + 2);
  }

  @Test
  @SuppressWarnings("unchecked")
  void should_deliver_a_message_through_the_leader_of_the_channels_shard() {
    List<String> news = (List<String>) app.getBean("news", List.class);
    // The container subscribes on a thread of its own: publish until a subscriber is counted.
    Awaitility.await("a subscriber of catalog-news")
        .atMost(Duration.ofSeconds(10))
        .until(() -> redis.convertAndSend("catalog-news", "sku-9 is back") >= 1);
    Awaitility.await("the message delivered")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(news).contains("sku-9 is back"));

    String leader = leaderOf("catalog-news");
    for (LocalNode node : cluster.leaders()) {
      assertThat(cli(node.id(), "PUBSUB", "NUMSUB", "catalog-news"))
          .as("subscribers of catalog-news on %s", node.id())
          .isEqualTo("catalog-news\n" + (node.id().equals(leader) ? "1" : "0"));
    }
  }

  @Test
  void should_count_visits_in_http_sessions_kept_on_the_leaders_of_their_keys() throws Exception {
    // Boot 3.5's own Spring Session auto-configuration, with its default repository
    assertThat(SessionRepository.class.getPackage().getImplementationVersion()).startsWith("3.5.");
    assertThat(app.getBean(SessionRepository.class)).isInstanceOf(RedisSessionRepository.class);

    Set<String> leaders = new HashSet<>();
    for (int session = 0; session < 30; session++) {
      HttpResponse<String> first = visit("GET", null);
      assertThat(first.statusCode()).as("%s", first.body()).isEqualTo(200);
      assertThat(first.body()).isEqualTo("1");
      String cookie = sessionCookie(first);

      // two more requests with the session cookie see the count go up
      assertThat(visit("GET", cookie).body()).isEqualTo("2");
      HttpResponse<String> third = visit("GET", cookie);
      assertThat(third.body()).isEqualTo("3");
      assertThat(third.headers().firstValue("Set-Cookie")).as("a new session").isEmpty();

      // the session's hash is on its shard's leader only, with its fields and its expiry
      String key = "spring:session:sessions:" + idOf(cookie);
      String leader = assertOnlyOnItsLeader(key);
      leaders.add(leader);
      assertThat(cli(leader, "HKEYS", key).split("\n"))
          .containsExactlyInAnyOrder(
              "creationTime", "lastAccessedTime", "maxInactiveInterval", "sessionAttr:visits");
      // Spring Session's default max inactive interval: 30 min
      assertThat(Long.parseLong(cli(leader, "PTTL", key))).isBetween(1L, 1_800_000L);
    }
    assertThat(leaders).hasSize(3);
  }

  @Test
  void should_delete_an_invalidated_session_from_its_leader() throws Exception {
    String cookie = sessionCookie(visit("GET", null));
    assertThat(visit("GET", cookie).body()).isEqualTo("2");
    String key = "spring:session:sessions:" + idOf(cookie);
    assertOnlyOnItsLeader(key);

    assertThat(visit("DELETE", cookie).statusCode()).isEqualTo(200);

    assertOnNoNode(key);
    assertThat(visit("DELETE", cookie).statusCode()).as("the session is gone").isEqualTo(404);
    HttpResponse<String> again = visit("GET", cookie);
    assertThat(again.body()).as("a new session counts from 1").isEqualTo("1");
    assertThat(idOf(sessionCookie(again))).isNotEqualTo(idOf(cookie));
  }

  private static HttpResponse<String> visit(String method, String cookie)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + "/visits"))
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code SESSION=<base64 id>} from the response's Set-Cookie. */
  private static String sessionCookie(HttpResponse<String> response) {
    String header =
        response
            .headers()
            .firstValue("Set-Cookie")
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no Set-Cookie in " + response.statusCode() + " " + response.body()));
    assertThat(header).startsWith("SESSION=");
    return header.substring(0, header.indexOf(';'));
  }

  private static String idOf(String cookie) {
    return new String(
        Base64.getDecoder().decode(cookie.substring("SESSION=".length())), StandardCharsets.UTF_8);
  }

  private static int shardOf(String key) {
    return Xxh64JumpRouter.forShards(SHARDS).shardOf(key.getBytes(StandardCharsets.UTF_8));
  }

  private static String leaderOf(String key) {
    return app.getBean(JumpgateClient.class).topology().route(shardOf(key)).leader().id();
  }

  private static String keyOnAnotherShardThan(String key) {
    for (int index = 2; index < 1000; index++) {
      String other = "order:" + index;
      if (!leaderOf(other).equals(leaderOf(key))) {
        return other;
      }
    }
    throw new AssertionError("no key on another leader than " + key);
  }

  /** The node's answer as redis-cli prints it (jumpgate-testkit's LocalNode.redisCli, 10 s). */
  private static String cli(String nodeId, String... command) {
    return cluster.node(nodeId).redisCli(command);
  }

  /** Asserts with redis-cli that the key is on its shard's leader and on no other leader. */
  private static String assertOnlyOnItsLeader(String key) {
    String leader = leaderOf(key);
    for (LocalNode node : cluster.leaders()) {
      assertThat(cli(node.id(), "EXISTS", key))
          .as("%s on %s (leader of its shard %d: %s)", key, node.id(), shardOf(key), leader)
          .isEqualTo(node.id().equals(leader) ? "1" : "0");
    }
    return leader;
  }

  private static void assertOnNoNode(String key) {
    for (LocalNode node : cluster.leaders()) {
      assertThat(cli(node.id(), "EXISTS", key)).as("%s on %s", key, node.id()).isEqualTo("0");
    }
  }
}
