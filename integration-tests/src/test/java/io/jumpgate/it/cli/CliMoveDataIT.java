package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admin verbs move the data with the map, run in-process against real etcd and redis-server
 * processes: on three leaders of 256 shards holding 20,000 keys (some with a TTL, some hash-tagged
 * pairs), {@code add-node --apply} leaves every key on exactly the leader of its shard, with its
 * value and TTL, and prints the estimate and the summary; {@code move-shard} and {@code remove-node
 * --apply --json} likewise; {@code add-node --map-only} changes the map alone and leaves a quarter
 * of the keys on a node that no longer leads their shard (the behaviour before the data moved).
 * Each verb's output is printed, for the transcript in docs/operations.md. With {@code CONFIG SET}
 * refused on every server, {@code --offline} plans say the shards are frozen for the whole copy,
 * {@code --offline --map-only} exits 2, and {@code add-node} and {@code move-shard --json} move the
 * data offline.
 */
class CliMoveDataIT {

  private static final int SHARDS = 256;
  private static final int PLAIN_KEYS = 18_000;
  private static final int TAGGED_PAIRS = 1_000;
  private static final String NEW_NODE = "n3";

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final Map<String, String> values = new LinkedHashMap<>();
  private final Set<String> withTtl = new HashSet<>();

  @Test
  void should_move_the_data_with_the_map_and_leave_it_with_map_only() throws Exception {
    // Given three leaders holding 20,000 keys on the leaders of their shards, and an empty server
    Setup setup = startCluster("cli-move");
    LocalCluster cluster = setup.cluster();
    RedisProcess newServer = setup.newServer();
    EtcdTopologyOptions etcd = setup.etcd();
    Map<String, RedisProcess> servers = setup.servers();
    Xxh64JumpRouter router = setup.router();
    RedisClient redis = setup.redis();
    writeKeysToTheirOwners(redis, cluster, router);
    assertThat(values).hasSize(PLAIN_KEYS + 2 * TAGGED_PAIRS);
    String[] source = {
      "--etcd",
      cluster.etcd().endpointList(),
      "--cluster",
      cluster.cluster(),
      "--cleanup-grace",
      "1s"
    };

    // When the node is added with --apply
    CliRun.Result added =
        run(
            concat(
                new String[] {"add-node", NEW_NODE + "=127.0.0.1:" + newServer.port(), "--apply"},
                source));

    // Then it leads a quarter of the shards, every key is on its owner, and the printout has the
    // estimate of what moved and the summary
    assertThat(added.exitCode()).as(added.err()).isZero();
    assertThat(leadersOf(etcd, NEW_NODE)).isEqualTo(SHARDS / 4);
    Map<String, Integer> keysOn = assertEveryKeyOnItsOwner(etcd, servers, redis, router);
    int movedKeys = keysOn.get(NEW_NODE);
    assertThat(movedKeys).isBetween(values.size() / 5, values.size() * 3 / 10);
    assertThat(added.out())
        .contains(
            "data: 64 shard(s) move with their data to their new leader, as migration add-node-n3",
            "at about 100,000 keys/s the copy takes about",
            "moved 64 of 64 shard(s) with their data in",
            " 0 write(s) after cutover");
    long estimated = estimatedKeys(added.out());
    assertThat(estimated)
        .as("the estimate of the keys that move, against %d that moved", movedKeys)
        .isBetween(movedKeys * 3L / 4, movedKeys * 5L / 4);

    // When one of its shards moves back to a leader
    int shard = firstShardLedBy(etcd, NEW_NODE);
    CliRun.Result movedShard =
        run(
            concat(
                new String[] {"move-shard", Integer.toString(shard), "--to", "leader-0"}, source));

    // Then that shard's keys are on leader-0, and still every key is on its owner
    assertThat(movedShard.exitCode()).as(movedShard.err()).isZero();
    assertThat(movedShard.out()).contains("moved 1 of 1 shard(s) with their data");
    assertThat(leaderOf(etcd, shard)).isEqualTo("leader-0");
    assertEveryKeyOnItsOwner(etcd, servers, redis, router);

    // When the node is removed with --apply --json
    CliRun.Result removed =
        run(concat(new String[] {"remove-node", NEW_NODE, "--apply", "--json"}, source));

    // Then its shards and their keys are back on the three leaders, its entry is gone, and the
    // document has the estimate and the move
    assertThat(removed.exitCode()).as(removed.err()).isZero();
    JsonNode document = new ObjectMapper().readTree(removed.out());
    assertThat(document.path("applied").asBoolean()).isTrue();
    assertThat(document.path("mapOnly").asBoolean()).isFalse();
    assertThat(document.path("dataMove").path("shards").asInt()).isEqualTo(SHARDS / 4 - 1);
    assertThat(document.path("dataMove").path("estimate").path("keys").asLong()).isPositive();
    assertThat(document.path("move").path("complete").asBoolean()).isTrue();
    assertThat(document.path("move").path("shardsMoved").size()).isEqualTo(SHARDS / 4 - 1);
    assertThat(document.path("move").path("writesAfterCutover").asLong()).isZero();
    assertThat(document.path("result").path("revision").asLong())
        .as("the node entry's deletion, written to the map alone after the moves")
        .isPositive();
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      assertThat(admin.read().nodes()).doesNotContainKey(NEW_NODE);
    }
    keysOn = assertEveryKeyOnItsOwner(etcd, servers, redis, router);
    assertThat(keysOn.get(NEW_NODE)).isZero();
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }

    // When the node is added again with --map-only
    CliRun.Result mapOnly =
        run(
            concat(
                new String[] {
                  "add-node", NEW_NODE + "=127.0.0.1:" + newServer.port(), "--apply", "--map-only"
                },
                new String[] {"--etcd", cluster.etcd().endpointList(), "--cluster", "cli-move"}));

    // Then only the map changed: the keys of its shards stay where they were, out of reach
    assertThat(mapOnly.exitCode()).as(mapOnly.err()).isZero();
    assertThat(mapOnly.out()).doesNotContain("data:", "moved ").contains("applied at revision");
    assertThat(leadersOf(etcd, NEW_NODE)).isEqualTo(SHARDS / 4);
    assertThat(keyCount(redis, newServer)).isZero();
    int invisible = keysNotOnTheirOwner(etcd, servers, redis, router);
    System.out.printf(
        "CLI-MOVE-DATA: %d of %d keys on a node that does not lead their shard after add-node"
            + " --map-only; 0 after add-node --apply%n",
        invisible, values.size());
    assertThat(invisible).isBetween(values.size() / 5, values.size() * 3 / 10);
  }

  @Test
  void should_move_the_data_when_rebalance_gives_shards_to_a_node_that_leads_none()
      throws Exception {
    // Given three leaders holding 20,000 keys, and a fourth node in the node table that leads
    // nothing (its entry written alone, as add-node does before it moves anything)
    Setup setup = startCluster("cli-rebalance");
    LocalCluster cluster = setup.cluster();
    RedisProcess newServer = setup.newServer();
    EtcdTopologyOptions etcd = setup.etcd();
    Map<String, RedisProcess> servers = setup.servers();
    Xxh64JumpRouter router = setup.router();
    RedisClient redis = setup.redis();
    writeKeysToTheirOwners(redis, cluster, router);
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      admin.apply(
          admin.planAddNodeEntry(io.jumpgate.spi.Node.of(NEW_NODE, "127.0.0.1", newServer.port())));
    }
    assertThat(leadersOf(etcd, NEW_NODE)).isZero();

    // When the map is rebalanced with --apply
    CliRun.Result rebalanced =
        run(
            "rebalance",
            "--apply",
            "--etcd",
            cluster.etcd().endpointList(),
            "--cluster",
            cluster.cluster(),
            "--cleanup-grace",
            "1s");

    // Then the fourth node leads a quarter of the shards, with their data: every key on exactly
    // its owner with its value and TTL, no record or lock left
    assertThat(rebalanced.exitCode()).as(rebalanced.err()).isZero();
    long led = leadersOf(etcd, NEW_NODE);
    assertThat(led).isBetween((long) SHARDS / 4 - 1, (long) SHARDS / 4 + 1);
    assertThat(rebalanced.out())
        .contains(
            "as migration rebalance",
            "moved " + led + " of " + led + " shard(s) with their data in",
            " 0 write(s) after cutover");
    Map<String, Integer> keysOn = assertEveryKeyOnItsOwner(etcd, servers, redis, router);
    assertThat(keysOn.get(NEW_NODE)).isBetween(values.size() / 5, values.size() * 3 / 10);
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
  }

  @Test
  void should_move_the_data_offline_when_the_servers_refuse_config_set() throws Exception {
    // Given three leaders holding 20,000 keys, an empty server, CONFIG SET refused on all four
    Setup setup = startCluster("cli-offline");
    LocalCluster cluster = setup.cluster();
    RedisProcess newServer = setup.newServer();
    EtcdTopologyOptions etcd = setup.etcd();
    Map<String, RedisProcess> servers = setup.servers();
    for (RedisProcess server : servers.values()) {
      assertThat(server.call("ACL", "SETUSER", "default", "-config|set")).isEqualTo("OK");
    }
    Xxh64JumpRouter router = setup.router();
    RedisClient redis = setup.redis();
    writeKeysToTheirOwners(redis, cluster, router);
    String[] source = {"--etcd", cluster.etcd().endpointList(), "--cluster", cluster.cluster()};
    String addNode = NEW_NODE + "=127.0.0.1:" + newServer.port();

    // When add-node --offline is planned
    CliRun.Result planned = run(concat(new String[] {"add-node", addNode, "--offline"}, source));

    // Then the plan says the shards are frozen for the whole copy, with the freeze per group
    assertThat(planned.exitCode()).as(planned.err()).isZero();
    assertThat(planned.out())
        .contains(
            "the moved shards are frozen for the whole copy of their group: each group of up to 32"
                + " shard(s)",
            "estimated freeze per group from leader-0: about ",
            "then 3 freeze(s) of at most 32 shard(s) each",
            "nothing written");

    // When --offline comes with --map-only: a usage error naming both, nothing written
    CliRun.Result both =
        run(
            concat(
                new String[] {"add-node", addNode, "--offline", "--map-only", "--apply"}, source));
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("--offline", "--map-only");
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      assertThat(admin.read().nodes()).doesNotContainKey(NEW_NODE);
    }

    // When the node is added offline with --apply
    CliRun.Result added =
        run(
            concat(
                new String[] {"add-node", addNode, "--apply", "--offline", "--cleanup-grace", "1s"},
                source));

    // Then it leads a quarter of the shards and every key is on its owner with value and TTL
    assertThat(added.exitCode()).as(added.err()).isZero();
    assertThat(added.out()).contains("moved 64 of 64 shard(s) with their data in");
    assertThat(leadersOf(etcd, NEW_NODE)).isEqualTo(SHARDS / 4);
    assertThat(assertEveryKeyOnItsOwner(etcd, servers, redis, router).get(NEW_NODE)).isPositive();

    // When one of its shards moves back offline, as JSON
    int shard = firstShardLedBy(etcd, NEW_NODE);
    CliRun.Result moved =
        run(
            concat(
                new String[] {
                  "move-shard", Integer.toString(shard), "--to", "leader-0", "--offline", "--json"
                },
                source));

    // Then the document says offline, with the estimated freeze, and the shard moved
    assertThat(moved.exitCode()).as(moved.err()).isZero();
    JsonNode document = new ObjectMapper().readTree(moved.out());
    assertThat(document.path("dataMove").path("offline").asBoolean()).isTrue();
    assertThat(document.path("dataMove").path("frozenForWholeCopy").asBoolean()).isTrue();
    assertThat(document.path("dataMove").path("estimatedFreezeMillisPerGroup").has(NEW_NODE))
        .isTrue();
    assertThat(document.path("move").path("complete").asBoolean()).isTrue();
    assertThat(leaderOf(etcd, shard)).isEqualTo("leader-0");
    assertEveryKeyOnItsOwner(etcd, servers, redis, router);
    for (RedisProcess server : servers.values()) {
      assertThat(server.call("CONFIG", "GET", "notify-keyspace-events"))
          .as("notify-keyspace-events on %s", server.address())
          .isEqualTo(List.of("notify-keyspace-events", ""));
    }
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
  }

  /** Three leaders of {@value #SHARDS} shards, an empty server for {@value #NEW_NODE}, a client. */
  private record Setup(
      LocalCluster cluster,
      RedisProcess newServer,
      EtcdTopologyOptions etcd,
      Map<String, RedisProcess> servers,
      Xxh64JumpRouter router,
      RedisClient redis) {}

  private Setup startCluster(String name) throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, name, SHARDS, 3, 0);
    RedisProcess newServer = fixture.redis();
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    Map<String, RedisProcess> servers = new LinkedHashMap<>();
    for (int index = 0; index < 3; index++) {
      servers.put(LocalCluster.leaderId(index), cluster.leader(index));
    }
    servers.put(NEW_NODE, newServer);
    RedisClient redis = RedisClient.create();
    fixture.register(() -> redis.shutdown(Duration.ZERO, Duration.ofSeconds(5)));
    return new Setup(cluster, newServer, etcd, servers, Xxh64JumpRouter.forShards(SHARDS), redis);
  }

  private CliRun.Result run(String... arguments) throws Exception {
    CliRun.Result result = CliRun.run(arguments);
    StringBuilder transcript = new StringBuilder("$ jumpgate");
    for (String argument : arguments) {
      transcript.append(' ').append(argument);
    }
    System.out.println(transcript);
    System.out.print(result.out());
    System.out.print(result.err());
    System.out.println("(exit " + result.exitCode() + ")");
    return result;
  }

  /** 18,000 plain keys and 1,000 hash-tagged pairs, one in five with a TTL, on their leaders. */
  private void writeKeysToTheirOwners(
      RedisClient redis, LocalCluster cluster, Xxh64JumpRouter router) {
    List<String> keys = new ArrayList<>();
    for (int index = 0; index < PLAIN_KEYS; index++) {
      keys.add("key:" + index);
    }
    for (int user = 0; user < TAGGED_PAIRS; user++) {
      keys.add("{user" + user + "}:a");
      keys.add("{user" + user + "}:b");
    }
    List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
    for (RedisProcess leader : cluster.leaders()) {
      connections.add(fixture.register(redis.connect(uri(leader))));
    }
    List<RedisFuture<?>> futures = new ArrayList<>();
    for (int index = 0; index < keys.size(); index++) {
      String key = keys.get(index);
      String value = "value-" + index;
      values.put(key, value);
      RedisAsyncCommands<String, String> owner =
          connections.get(router.shardOfUtf8(key) % connections.size()).async();
      futures.add(owner.set(key, value));
      if (index % 5 == 0) {
        withTtl.add(key);
        futures.add(owner.pexpire(key, 600_000));
      }
    }
    assertThat(LettuceFutures.awaitAll(30, TimeUnit.SECONDS, futures.toArray(RedisFuture[]::new)))
        .as("20,000 keys written within 30 s")
        .isTrue();
  }

  private static RedisURI uri(RedisProcess server) {
    return RedisURI.builder()
        .withHost("127.0.0.1")
        .withPort(server.port())
        .withTimeout(Duration.ofSeconds(30))
        .build();
  }

  /**
   * Asserts that the map is settled, that every key of every server is on the leader of its shard
   * and on no other server, and that every key written is there with its value and TTL.
   *
   * @return the number of keys on each server
   */
  private Map<String, Integer> assertEveryKeyOnItsOwner(
      EtcdTopologyOptions etcd,
      Map<String, RedisProcess> servers,
      RedisClient redis,
      Xxh64JumpRouter router) {
    TopologyAdminState map = read(etcd);
    for (ShardAssignment assignment : map.assignments().values()) {
      assertThat(assignment.state()).isEqualTo(ShardState.ACTIVE);
    }
    Map<String, String> foundOn = new HashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Map.Entry<String, RedisProcess> server : servers.entrySet()) {
      try (StatefulRedisConnection<String, String> connection =
          redis.connect(uri(server.getValue()))) {
        RedisCommands<String, String> commands = connection.sync();
        Set<String> keys = keys(commands);
        counts.put(server.getKey(), keys.size());
        for (String key : keys) {
          assertThat(foundOn.put(key, server.getKey())).as("key %s on two servers", key).isNull();
          assertThat(server.getKey())
              .as("server holding key %s", key)
              .isEqualTo(map.assignments().get(router.shardOfUtf8(key)).leader());
          assertThat(commands.get(key)).as(key).isEqualTo(values.get(key));
          long pttl = commands.pttl(key);
          if (withTtl.contains(key)) {
            assertThat(pttl).as("TTL of %s", key).isPositive();
          } else {
            assertThat(pttl).as("TTL of %s", key).isEqualTo(-1);
          }
        }
      }
    }
    assertThat(foundOn.keySet()).as("every key written, on its owner").isEqualTo(values.keySet());
    return counts;
  }

  private int keysNotOnTheirOwner(
      EtcdTopologyOptions etcd,
      Map<String, RedisProcess> servers,
      RedisClient redis,
      Xxh64JumpRouter router) {
    TopologyAdminState map = read(etcd);
    int misplaced = 0;
    for (Map.Entry<String, RedisProcess> server : servers.entrySet()) {
      try (StatefulRedisConnection<String, String> connection =
          redis.connect(uri(server.getValue()))) {
        for (String key : keys(connection.sync())) {
          if (!server.getKey().equals(map.assignments().get(router.shardOfUtf8(key)).leader())) {
            misplaced++;
          }
        }
      }
    }
    return misplaced;
  }

  private long keyCount(RedisClient redis, RedisProcess server) {
    try (StatefulRedisConnection<String, String> connection = redis.connect(uri(server))) {
      return connection.sync().dbsize();
    }
  }

  private static Set<String> keys(RedisCommands<String, String> commands) {
    Set<String> keys = new HashSet<>();
    ScanIterator.scan(commands, ScanArgs.Builder.limit(1000)).forEachRemaining(keys::add);
    return keys;
  }

  /** The key count of the line {@code estimate: about 5,012 key(s), ...}. */
  private static long estimatedKeys(String out) {
    for (String line : out.lines().toList()) {
      if (line.startsWith("estimate: about ")) {
        String number = line.substring("estimate: about ".length(), line.indexOf(" key(s)"));
        return Long.parseLong(number.replace(",", ""));
      }
    }
    throw new AssertionError("no estimate line in:\n" + out);
  }

  private static TopologyAdminState read(EtcdTopologyOptions etcd) {
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      return admin.read();
    }
  }

  private static long leadersOf(EtcdTopologyOptions etcd, String nodeId) {
    return read(etcd).assignments().values().stream()
        .map(ShardAssignment::leader)
        .filter(nodeId::equals)
        .count();
  }

  private static String leaderOf(EtcdTopologyOptions etcd, int shard) {
    return read(etcd).assignments().get(shard).leader();
  }

  private static int firstShardLedBy(EtcdTopologyOptions etcd, String nodeId) {
    for (Map.Entry<Integer, ShardAssignment> entry : read(etcd).assignments().entrySet()) {
      if (entry.getValue().leader().equals(nodeId)) {
        return entry.getKey();
      }
    }
    throw new AssertionError(nodeId + " leads no shard");
  }

  private static String[] concat(String[] first, String[] second) {
    String[] all = new String[first.length + second.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }
}
