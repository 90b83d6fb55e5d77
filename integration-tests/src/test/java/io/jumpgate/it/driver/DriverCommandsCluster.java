package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.testkit.Resp;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What the DriverCommands*IT classes share: a local cluster of 3 leaders over 1024 shards, a driver
 * client on it, and a plain redis-server as the reference.
 *
 * <p>Every test runs each command twice, through the driver and on the reference with the same key
 * names, and compares the answers: the reference holds the union of what the cluster holds, so a
 * command gives the same answer on both, multi-key ones included. {@link #assertOnlyOnOwner} then
 * checks that a key lives on its shard's leader, with the same content as on the reference, and on
 * no other node.
 */
final class DriverCommandsCluster {

  static final int SHARDS = 1024;

  /**
   * The commands' deadline in these tests, which compare answers and never time anything: 10 s
   * rather than the driver's 2 s default. In bin/test's side-by-side pass (three test JVMs, their
   * servers and the Spring module's applications on 2 cores) a client's first command, which waits
   * for its node connection to open, once took more than 2 s (DriverCommandsKeysIT, 2026-11-29:
   * "the connection ... was not ready within the command's deadline").
   */
  static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

  final LocalCluster cluster;
  final RedisProcess reference;
  final JumpgateClient client;
  final JumpgateConnection<String, String> connection;
  final JumpgateCommands<String, String> sync;
  final JumpgateAsyncCommands<String, String> async;
  final Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);

  private DriverCommandsCluster(
      LocalCluster cluster, RedisProcess reference, JumpgateClient client) {
    this.cluster = cluster;
    this.reference = reference;
    this.client = client;
    this.connection = client.connect();
    this.sync = connection.sync();
    this.async = connection.async();
  }

  /** Starts everything in the fixture's current scope (call from {@code @BeforeAll}). */
  static DriverCommandsCluster start(ProcessFixture fixture) throws Exception {
    return start(fixture, builder -> {});
  }

  /** Starts everything, with client options of the test's own. */
  static DriverCommandsCluster start(
      ProcessFixture fixture, Consumer<JumpgateOptions.Builder> options) throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 3, 0);
    RedisProcess reference = fixture.redis();
    JumpgateOptions.Builder builder = cluster.clientOptions().commandTimeout(COMMAND_TIMEOUT);
    options.accept(builder);
    JumpgateClient client = fixture.register(JumpgateClient.create(builder.build()));
    return new DriverCommandsCluster(cluster, reference, client);
  }

  int shardOf(String key) {
    return router.shardOfUtf8(key);
  }

  /** The leader of the key's shard. */
  RedisProcess owner(String key) {
    return cluster.initialLeaderOf(shardOf(key));
  }

  /** A command on the reference server. */
  Object plain(String... command) throws IOException {
    Object answer = reference.call(command);
    if (answer instanceof Resp.Error error) {
      throw new AssertionError("reference answer to " + List.of(command) + ": " + error.message());
    }
    return answer;
  }

  /** A command on the reference server that must fail: its error message. */
  String plainError(String... command) throws IOException {
    Object answer = reference.call(command);
    assertThat(answer)
        .as("reference answer to %s", List.of(command))
        .isInstanceOf(Resp.Error.class);
    return ((Resp.Error) answer).message();
  }

  /**
   * The key is on its shard's leader with the content it has on the reference (expiry included, as
   * "has one or not"), and on no other leader.
   */
  void assertOnlyOnOwner(String key) throws IOException {
    RedisProcess owner = owner(key);
    Object type = reference.call("TYPE", key);
    assertThat(type).as("type of %s on the reference", key).isNotEqualTo("none");
    assertThat(owner.call("TYPE", key)).as("type of %s on its owner", key).isEqualTo(type);
    assertThat(content(owner, key)).as("%s on its owner", key).isEqualTo(content(reference, key));
    assertThat(hasExpiry(owner, key))
        .as("expiry of %s on its owner", key)
        .isEqualTo(hasExpiry(reference, key));
    for (RedisProcess node : cluster.leaders()) {
      if (node != owner) {
        assertThat(node.call("EXISTS", key)).as("%s on %s", key, node.address()).isEqualTo(0L);
      }
    }
  }

  /** The key exists on no leader (and not on the reference). */
  void assertNowhere(String key) throws IOException {
    assertThat(reference.call("EXISTS", key)).as("%s on the reference", key).isEqualTo(0L);
    for (RedisProcess node : cluster.leaders()) {
      assertThat(node.call("EXISTS", key)).as("%s on %s", key, node.address()).isEqualTo(0L);
    }
  }

  private static boolean hasExpiry(RedisProcess node, String key) throws IOException {
    return (Long) node.call("PTTL", key) >= 0;
  }

  /** A key's content in a form that compares equal on two servers (sets and hashes sorted). */
  static Object content(RedisProcess node, String key) throws IOException {
    String type = (String) node.call("TYPE", key);
    switch (type) {
      case "string":
        return node.call("GET", key);
      case "list":
        return node.call("LRANGE", key, "0", "-1");
      case "set":
        return new TreeSet<>(strings(node.call("SMEMBERS", key)));
      case "hash":
        return new TreeMap<>(hash(node.call("HGETALL", key)));
      case "zset":
        return node.call("ZRANGE", key, "0", "-1", "WITHSCORES");
      default:
        return type;
    }
  }

  // ---- raw answers in the driver's types --------------------------------------------------------

  static Boolean bool(Object raw) {
    return raw == null ? null : (Long) raw == 1L;
  }

  static Double decimal(Object raw) {
    return raw == null ? null : Double.valueOf((String) raw);
  }

  @SuppressWarnings("unchecked")
  static List<String> strings(Object raw) {
    return raw == null ? null : (List<String>) raw;
  }

  static Set<String> set(Object raw) {
    return Set.copyOf(strings(raw));
  }

  /** An HGETALL reply (field, value, field, value, ...) as a map in reply order. */
  static Map<String, String> hash(Object raw) {
    List<String> items = strings(raw);
    Map<String, String> map = new LinkedHashMap<>();
    for (int index = 0; index < items.size(); index += 2) {
      map.put(items.get(index), items.get(index + 1));
    }
    return map;
  }

  /** An HMGET reply as Lettuce's key-value list. */
  static List<KeyValue<String, String>> keyValues(List<String> keys, Object raw) {
    List<String> values = strings(raw);
    List<KeyValue<String, String>> answer = new ArrayList<>();
    for (int index = 0; index < keys.size(); index++) {
      answer.add(KeyValue.fromNullable(keys.get(index), values.get(index)));
    }
    return answer;
  }

  /** A WITHSCORES reply (member, score, ...) as scored values. */
  static List<ScoredValue<String>> scored(Object raw) {
    List<String> items = strings(raw);
    List<ScoredValue<String>> answer = new ArrayList<>();
    for (int index = 0; index < items.size(); index += 2) {
      answer.add(ScoredValue.just(Double.parseDouble(items.get(index + 1)), items.get(index)));
    }
    return answer;
  }
}
