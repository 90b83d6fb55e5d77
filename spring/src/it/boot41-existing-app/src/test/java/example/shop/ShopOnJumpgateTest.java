package example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spring.data.JumpgateConnectionFactory;
import io.jumpgate.testkit.LocalCluster;
import io.jumpgate.testkit.LocalNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.cache.CacheManager;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The unchanged application on a real etcd and three redis-servers (jumpgate-testkit, cluster
 * "default" as application.properties expects): the test passes the cluster's etcd endpoint as
 * jumpgate.etcd.endpoints (the one setting of the application's own that differs from
 * application.properties), then checks with redis-cli (EXISTS and PTTL on each node,
 * jumpgate-testkit's LocalNode.redisCli) that every key the application wrote sits on the leader of
 * its shard, and only there.
 *
 * <p>It also gives jumpgate.timeout=10s: this build runs beside the other modules' tests in
 * bin/test, and the application's first command, which waits for its node connection, once took
 * more than the default 2 s there ("the connection ... was not ready within the command's
 * deadline"). What the test checks is where the keys land, not how fast.
 */
class ShopOnJumpgateTest {
  private static final int SHARDS = 64;

  private static LocalCluster cluster;
  private static ConfigurableApplicationContext app;

  @BeforeAll
  static void start() {
    cluster = LocalCluster.builder().nodes(3).shards(SHARDS).cluster("default").start();
    try {
      app =
          SpringApplication.run(
              ShopApplication.class,
              "--jumpgate.etcd.endpoints=" + cluster.etcdEndpoint(),
              "--jumpgate.timeout=10s");
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
  void should_run_on_jumpgates_factory_and_redis_cache_manager() {
    assertThat(app.getBean(RedisConnectionFactory.class))
        .isInstanceOf(JumpgateConnectionFactory.class);
    assertThat(app.getBean(CacheManager.class)).isInstanceOf(RedisCacheManager.class);
  }

  @Test
  void should_keep_stock_on_the_leaders_of_its_keys() {
    Stock stock = app.getBean(Stock.class);
    List<String> skus = new ArrayList<>();
    Set<String> leaders = new HashSet<>();
    for (int index = 0; index < 40; index++) {
      String sku = "sku-" + index;
      skus.add(sku);
      stock.put(sku, 100 + index);
      leaders.add(assertOnlyOnItsLeader("stock:" + sku));
    }
    assertThat(leaders).containsExactlyInAnyOrderElementsOf(nodeIds());

    assertThat(stock.take("sku-3")).isEqualTo(102);
    List<String> counts = stock.counts(List.of("sku-0", "sku-3", "missing", "sku-39"));
    assertThat(counts).containsExactly("100", "102", null, "139");

    stock.describe("sku-5", "lamp", "green");
    assertOnlyOnItsLeader("product:sku-5");
    assertThat(stock.name("sku-5")).isEqualTo("lamp");
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
    long timeToLive = Long.parseLong(cluster.node(leader).redisCli("PTTL", "prices::sku-12"));
    assertThat(timeToLive).isPositive().isLessThanOrEqualTo(600_000L);

    prices.forget("sku-12");
    for (String node : nodeIds()) {
      assertThat(holds(node, "prices::sku-12")).as("evicted from %s", node).isFalse();
    }
    assertThat(prices.price("sku-12")).isEqualTo("EUR 42.00");
    assertThat(prices.catalogueCalls()).isEqualTo(before + 2);
  }

  /** Asserts the key is on its shard's leader (as the routing core names it) and on no other. */
  private static String assertOnlyOnItsLeader(String key) {
    int shard = Xxh64JumpRouter.forShards(SHARDS).shardOf(key.getBytes(StandardCharsets.UTF_8));
    String leader = app.getBean(JumpgateClient.class).topology().route(shard).leader().id();
    for (String node : nodeIds()) {
      assertThat(holds(node, key)).as("%s on %s", key, node).isEqualTo(node.equals(leader));
    }
    return leader;
  }

  private static List<String> nodeIds() {
    return cluster.leaders().stream().map(LocalNode::id).toList();
  }

  /** EXISTS with redis-cli on one node, not through the application. */
  private static boolean holds(String nodeId, String key) {
    return cluster.node(nodeId).redisCli("EXISTS", key).equals("1");
  }
}
