package io.jumpgate.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.cache.BatchStrategies;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.DefaultStringRedisConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.StringRedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Spring Data Redis's sessions of several commands on the starter's factory, against a real etcd
 * and three real redis-servers on 127.0.0.1: {@code executePipelined} over many shards, and
 * WATCH/MULTI/EXEC ({@code SessionCallback}) and Lua scripts in one shard, refused over two, and
 * {@code @Cacheable}/{@code @CacheEvict} through {@code RedisCacheManager}, and a {@code
 * RedisMessageListenerContainer} receiving messages on channels routed like keys.
 */
class SpringDataRedisSessionsIT {

  private static final int SHARDS = 64;
  private static final int PIPELINED_COMMANDS = 500;

  private static LocalNodes nodes;
  private static ConfigurableApplicationContext app;
  private static StringRedisTemplate template;
  private static JumpgateClient client;
  private static JumpgateCommands<String, String> driver;
  private static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);

  @BeforeAll
  static void start() throws Exception {
    nodes = LocalNodes.start("default", SHARDS, 3);
    try {
      app =
          new SpringApplicationBuilder(DemoApplication.class, CacheConfiguration.class)
              .properties(
                  "server.port=0",
                  "server.address=127.0.0.1",
                  "spring.main.banner-mode=off",
                  "jumpgate.etcd.endpoints=" + nodes.etcdEndpoint(),
                  "jumpgate.etcd.request-timeout=2s")
              .run();
      template = app.getBean(StringRedisTemplate.class);
      client = app.getBean(JumpgateClient.class);
      @SuppressWarnings("unchecked")
      JumpgateCommands<String, String> commands = app.getBean(JumpgateCommands.class);
      driver = commands;
    } catch (RuntimeException | Error failure) {
      nodes.close();
      throw failure;
    }
  }

  @AfterAll
  static void stop() {
    try {
      if (app != null) {
        app.close();
      }
    } finally {
      nodes.close();
    }
  }

  @BeforeEach
  void flush() {
    template.execute(
        (RedisCallback<Void>)
            connection -> {
              connection.serverCommands().flushDb();
              return null;
            });
  }

  @Test
  void should_answer_a_pipeline_over_many_shards_in_the_order_of_its_calls() throws Exception {
    // the same 500 mixed commands, first one by one, then pipelined on an empty database
    List<Object> oneByOne = new ArrayList<>();
    for (int index = 0; index < PIPELINED_COMMANDS; index++) {
      int call = index;
      oneByOne.add(
          template.execute(
              (RedisCallback<Object>) connection -> mixedCommand(stringsOf(connection), call)));
    }
    flush();
    List<Object> pipelined =
        template.executePipelined(
            (RedisCallback<Object>)
                connection -> {
                  StringRedisConnection strings = stringsOf(connection);
                  for (int index = 0; index < PIPELINED_COMMANDS; index++) {
                    assertThat(mixedCommand(strings, index)).isNull();
                  }
                  return null;
                });

    assertThat(pipelined).hasSize(PIPELINED_COMMANDS).isEqualTo(oneByOne);
    assertThat(oneByOne).contains(true, 1L, 8L, "v-0").containsNull();

    // the keys SET (pipe:0, pipe:2, ... pipe:48) are spread over every node, each on its shard's
    // leader and only there
    Set<String> leaders = new HashSet<>();
    for (int index = 0; index < 50; index += 2) {
      String key = "pipe:" + index;
      String leader = leaderOf(key);
      leaders.add(leader);
      for (String node : nodes.redisPorts().keySet()) {
        assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isEqualTo(node.equals(leader));
      }
    }
    assertThat(leaders).containsExactlyInAnyOrderElementsOf(nodes.redisPorts().keySet());
  }

  @Test
  void should_keep_each_pipelined_commands_error_in_its_place() {
    assertThatThrownBy(
            () ->
                template.executePipelined(
                    (RedisCallback<Object>)
                        connection -> {
                          StringRedisConnection strings = stringsOf(connection);
                          strings.set("pipe:text", "not a number");
                          strings.incr("pipe:text");
                          strings.get("pipe:text");
                          return null;
                        }))
        .isInstanceOfSatisfying(
            RedisPipelineException.class,
            failure -> {
              List<Object> results = failure.getPipelineResult();
              assertThat(results).hasSize(3);
              assertThat(results.get(0)).isEqualTo(true);
              assertThat(results.get(1))
                  .isInstanceOf(RuntimeException.class)
                  .asString()
                  .contains("not an integer");
              assertThat(results.get(2)).isEqualTo("not a number".getBytes(StandardCharsets.UTF_8));
            });
  }

  @Test
  void should_run_a_watched_transaction_on_the_leader_of_its_hash_tag() throws Exception {
    template.opsForValue().set("{user1}:a", "10");
    template.opsForValue().set("{user1}:b", "20");

    List<Object> answers = template.execute(transaction(false, "{user1}:a", "{user1}:b"));

    assertThat(answers).containsExactly(11L, 21L);
    assertThat(template.opsForValue().get("{user1}:a")).isEqualTo("11");
    for (String key : List.of("{user1}:a", "{user1}:b")) {
      String leader = leaderOf(key);
      for (String node : nodes.redisPorts().keySet()) {
        assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isEqualTo(node.equals(leader));
      }
    }
  }

  @Test
  void should_abort_a_transaction_when_a_watched_key_changed_before_exec() {
    template.opsForValue().set("{user1}:a", "10");
    template.opsForValue().set("{user1}:b", "20");

    List<Object> answers = template.execute(transaction(true, "{user1}:a", "{user1}:b"));

    // Redis aborted EXEC (the connection's exec() answered null; the template makes that empty)
    assertThat(answers).isNullOrEmpty();
    assertThat(template.opsForValue().get("{user1}:a")).isEqualTo("changed");
    assertThat(template.opsForValue().get("{user1}:b")).isEqualTo("20");
  }

  @Test
  void should_refuse_a_transaction_over_two_shards_and_write_nothing() {
    String tagged = "{user1}:a";
    String other = keyOnAnotherShard(tagged);
    int taggedShard = shardOf(tagged);
    int otherShard = shardOf(other);

    assertThatThrownBy(
            () ->
                template.execute(
                    new SessionCallback<List<Object>>() {
                      @Override
                      @SuppressWarnings("unchecked")
                      public <K, V> List<Object> execute(RedisOperations<K, V> operations) {
                        RedisOperations<String, String> redis =
                            (RedisOperations<String, String>) operations;
                        redis.multi();
                        redis.opsForValue().set(tagged, "1");
                        redis.opsForValue().set(other, "2");
                        return redis.exec();
                      }
                    }))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageContaining("MULTI, SET, SET, EXEC needs all its keys on one shard")
        .hasMessageContaining("shard " + taggedShard + " ")
        .hasMessageContaining("shard " + otherShard + " ")
        .hasMessageContaining("nothing was sent");
    assertThat(template.hasKey(tagged)).isFalse();
    assertThat(template.hasKey(other)).isFalse();
  }

  /**
   * WATCH both keys, MULTI, INCR both, EXEC; with {@code conflict}, a write between WATCH and EXEC.
   */
  private static SessionCallback<List<Object>> transaction(
      boolean conflict, String first, String second) {
    return new SessionCallback<>() {
      @Override
      @SuppressWarnings("unchecked")
      public <K, V> List<Object> execute(RedisOperations<K, V> operations) {
        RedisOperations<String, String> redis = (RedisOperations<String, String>) operations;
        redis.watch(List.of(first, second));
        if (conflict) {
          // another client's write, through the driver on its shared connections
          driver.set(first, "changed");
        }
        redis.multi();
        redis.opsForValue().increment(first);
        redis.opsForValue().increment(second);
        return redis.exec();
      }
    };
  }

  @Test
  void should_run_a_script_on_the_leader_of_its_keys_shard() throws Exception {
    DefaultRedisScript<Long> script =
        new DefaultRedisScript<>(
            "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCR', KEYS[2])", Long.class);
    List<String> keys = List.of("{user2}:name", "{user2}:visits");

    // new nodes: Spring's EVALSHA gets NOSCRIPT from the leader and sends EVAL; then EVALSHA runs
    assertThat(template.execute(script, keys, "Ada")).isEqualTo(1L);
    assertThat(template.execute(script, keys, "Ada")).isEqualTo(2L);
    assertThat(template.opsForValue().get("{user2}:name")).isEqualTo("Ada");
    for (String key : keys) {
      String leader = leaderOf(key);
      for (String node : nodes.redisPorts().keySet()) {
        assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isEqualTo(node.equals(leader));
      }
    }

    String other = keyOnAnotherShard("{user2}:name");
    assertThatThrownBy(() -> template.execute(script, List.of("{user2}:name", other), "Bob"))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageContaining("EVALSHA needs all its keys on one shard")
        .hasMessageContaining("shard " + shardOf(other) + " ")
        .hasMessageContaining("nothing was sent");
    assertThat(template.opsForValue().get("{user2}:name")).isEqualTo("Ada");
    assertThat(template.hasKey(other)).isFalse();
  }

  @Test
  void should_serve_cacheable_results_from_redis_on_their_shards_leaders() throws Exception {
    Profiles profiles = app.getBean(Profiles.class);
    int before = profiles.computed();

    assertThat(profiles.profile("42")).isEqualTo("profile of 42");
    assertThat(profiles.profile("42")).isEqualTo("profile of 42");
    assertThat(profiles.computed()).as("second call served from Redis").isEqualTo(before + 1);
    String key = "profiles::42";
    String leader = leaderOf(key);
    for (String node : nodes.redisPorts().keySet()) {
      assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isEqualTo(node.equals(leader));
    }

    // @CacheEvict removes the key; the next call computes again
    profiles.forget("42");
    assertThat(template.hasKey(key)).isFalse();
    assertThat(profiles.profile("42")).isEqualTo("profile of 42");
    assertThat(profiles.computed()).isEqualTo(before + 2);

    // the cache's clear (SCAN and DEL on every leader) removes entries on every node
    List<String> ids = new ArrayList<>();
    Set<String> leaders = new HashSet<>();
    for (int index = 0; index < 40; index++) {
      ids.add("p" + index);
      profiles.profile("p" + index);
      leaders.add(leaderOf("profiles::p" + index));
    }
    assertThat(leaders).containsExactlyInAnyOrderElementsOf(nodes.redisPorts().keySet());
    for (String id : ids) {
      assertThat(template.hasKey("profiles::" + id)).as(id).isTrue();
    }
    template.opsForValue().set("kept", "not a cache entry");
    profiles.forgetAll();
    // Spring Data Redis 4 clears a cache asynchronously when its factory is also reactive (as
    // Lettuce's is, and this one is): Cache.clear() may be deferred; the entries go soon after.
    await()
        .atMost(Duration.ofSeconds(10))
        .alias("every profiles:: entry removed from its leader by the cache's clear")
        .untilAsserted(
            () -> {
              for (String id : ids) {
                assertThat(template.hasKey("profiles::" + id)).as(id).isFalse();
              }
            });
    assertThat(template.hasKey(key)).isFalse();
    assertThat(template.opsForValue().get("kept")).isEqualTo("not a cache entry");
  }

  @Test
  void should_deliver_published_messages_to_a_listener_container() throws Exception {
    BlockingQueue<String> received = new LinkedBlockingQueue<>();
    RedisMessageListenerContainer container = new RedisMessageListenerContainer();
    container.setConnectionFactory(template.getRequiredConnectionFactory());
    container.addMessageListener(
        (message, pattern) ->
            received.add(
                new String(message.getChannel(), StandardCharsets.UTF_8)
                    + "="
                    + new String(message.getBody(), StandardCharsets.UTF_8)),
        List.of(
            new ChannelTopic("news"),
            new ChannelTopic("{user3}:events"),
            new PatternTopic("alerts.*")));
    container.afterPropertiesSet();
    container.start();
    try {
      // each channel is subscribed on the leader of its shard, and only there
      for (String channel : List.of("news", "{user3}:events")) {
        String leader = leaderOf(channel);
        await("a subscriber of " + channel + " on " + leader)
            .atMost(Duration.ofSeconds(10))
            .until(() -> nodes.subscribers(leader, channel) == 1);
        for (String node : nodes.redisPorts().keySet()) {
          assertThat(nodes.subscribers(node, channel))
              .as("subscribers of %s on %s", channel, node)
              .isEqualTo(node.equals(leader) ? 1 : 0);
        }
      }

      template.convertAndSend("news", "hello");
      template.convertAndSend("{user3}:events", "login");
      template.convertAndSend("alerts.disk", "full");

      List<String> messages = new ArrayList<>();
      for (int index = 0; index < 3; index++) {
        String message = received.poll(10, TimeUnit.SECONDS);
        assertThat(message).as("message %d of 3, after %s", index + 1, messages).isNotNull();
        messages.add(message);
      }
      assertThat(messages)
          .containsExactlyInAnyOrder("news=hello", "{user3}:events=login", "alerts.disk=full");
    } finally {
      container.destroy();
    }
  }

  private static int shardOf(String key) {
    return ROUTER.shardOf(key.getBytes(StandardCharsets.UTF_8));
  }

  private static String keyOnAnotherShard(String key) {
    for (int index = 0; ; index++) {
      String other = "elsewhere:" + index;
      if (shardOf(other) != shardOf(key)) {
        return other;
      }
    }
  }

  /** SET, GET, INCR and HSET in turn, over 50, 50, 30 and 20 keys; null while pipelining. */
  private static Object mixedCommand(StringRedisConnection redis, int index) {
    return switch (index % 4) {
      case 0 -> redis.set("pipe:" + (index % 50), "v-" + index);
      case 1 -> redis.get("pipe:" + ((index + 7) % 50));
      case 2 -> redis.incr("count:" + (index % 30));
      default -> redis.hSet("hash:" + (index % 20), "field-" + (index % 3), "v-" + index);
    };
  }

  private static StringRedisConnection stringsOf(RedisConnection connection) {
    return connection instanceof StringRedisConnection strings
        ? strings
        : new DefaultStringRedisConnection(connection);
  }

  private static String leaderOf(String key) {
    int shard = ROUTER.shardOf(key.getBytes(StandardCharsets.UTF_8));
    return client.topology().route(shard).leader().id();
  }

  /** The cache as an application declares it: Redis's cache manager on the connection factory. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class CacheConfiguration {

    @Bean
    RedisCacheManager cacheManager(RedisConnectionFactory factory) {
      // clear() walks the keys with SCAN (Boot's default strategy is KEYS, which works too)
      return RedisCacheManager.builder(
              RedisCacheWriter.nonLockingRedisCacheWriter(factory, BatchStrategies.scan(10)))
          .build();
    }

    @Bean
    Profiles profiles() {
      return new Profiles();
    }
  }

  /** A service whose answers are cached in Redis; counts what it computes. */
  static class Profiles {
    private final AtomicInteger computed = new AtomicInteger();

    /** How many profiles were computed (a method: the bean is a proxy). */
    public int computed() {
      return computed.get();
    }

    @Cacheable("profiles")
    public String profile(String id) {
      computed.incrementAndGet();
      return "profile of " + id;
    }

    @CacheEvict("profiles")
    public void forget(String id) {}

    @CacheEvict(cacheNames = "profiles", allEntries = true)
    public void forgetAll() {}
  }
}
