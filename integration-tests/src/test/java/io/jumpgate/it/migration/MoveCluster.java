package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.MoverProcess;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cluster of the migration tests of issue 12: two leaders of {@code shards} shards (leader-0
 * leads the even ones), an empty third server {@link #NEW_NODE} in the node table, and the helpers
 * those tests share (driver clients, data written before a move, the map, the end checks).
 */
final class MoveCluster {

  static final String NEW_NODE = "leader-2";
  static final String SOURCE = LocalCluster.leaderId(0);

  final ProcessFixture fixture;
  final LocalCluster cluster;
  final EtcdTopologyOptions etcd;
  final RedisProcess newServer;
  final Xxh64JumpRouter router;

  /** Keys written before the move with their values, and whether each has a TTL. */
  record Data(Map<String, String> values, Map<String, Boolean> withTtl) {}

  private MoveCluster(
      ProcessFixture fixture,
      LocalCluster cluster,
      EtcdTopologyOptions etcd,
      RedisProcess newServer,
      Xxh64JumpRouter router) {
    this.fixture = fixture;
    this.cluster = cluster;
    this.etcd = etcd;
    this.newServer = newServer;
    this.router = router;
  }

  static MoveCluster start(ProcessFixture fixture, String name, int shards) throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, name, shards, 2, 0);
    RedisProcess newServer = fixture.redis();
    cluster.putValue(
        "nodes/" + NEW_NODE, "{\"host\":\"127.0.0.1\",\"port\":" + newServer.port() + "}");
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    return new MoveCluster(fixture, cluster, etcd, newServer, Xxh64JumpRouter.forShards(shards));
  }

  RedisProcess source() {
    return cluster.leader(0);
  }

  /** Node id to server, for {@link OwnerCheck}. */
  Map<String, RedisProcess> servers() {
    return Map.of(
        LocalCluster.leaderId(0),
        cluster.leader(0),
        LocalCluster.leaderId(1),
        cluster.leader(1),
        NEW_NODE,
        newServer);
  }

  /** A driver client with this command timeout, closed by the fixture. */
  JumpgateClient client(Duration commandTimeout) {
    return client(etcd, commandTimeout);
  }

  /** A driver client reaching etcd as {@code etcdOptions} say, closed by the fixture. */
  JumpgateClient client(EtcdTopologyOptions etcdOptions, Duration commandTimeout) {
    return fixture.register(
        JumpgateClient.create(
            JumpgateOptions.builder().etcd(etcdOptions).commandTimeout(commandTimeout).build()));
  }

  /**
   * Waits, bounded, until {@code redis} answers a GET on every shard: its first connection to each
   * node is open (on this loaded machine a first connect can outlast a command's deadline).
   */
  void awaitEveryShardAnswers(JumpgateCommands<String, String> redis) {
    Poll.until(
        Duration.ofSeconds(30),
        "the client to answer a GET on every shard",
        () -> {
          for (int shard = 0; shard < router.shardCount(); shard++) {
            redis.get(keyOfShard(shard, "warm-up:"));
          }
          return true;
        });
  }

  /** {@code count} keys {@code data:<index>} written through the driver, one in five with a TTL. */
  static Data writeData(JumpgateAsyncCommands<String, String> async, int count) throws Exception {
    Map<String, String> values = new TreeMap<>();
    Map<String, Boolean> withTtl = new HashMap<>();
    List<CompletableFuture<?>> writes = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      String key = "data:" + index;
      values.put(key, "value-" + index);
      withTtl.put(key, index % 5 == 0);
      writes.add(async.set(key, "value-" + index).toCompletableFuture());
      if (index % 5 == 0) {
        writes.add(async.pexpire(key, 600_000).toCompletableFuture());
      }
    }
    for (CompletableFuture<?> write : writes) {
      write.get(30, TimeUnit.SECONDS);
    }
    return new Data(values, withTtl);
  }

  /** Half of leader-0's shards (every other even shard, from 0) to the new node. */
  MovePlan halfOfSource(String migrationId) {
    MovePlan.Builder plan = MovePlan.builder(migrationId);
    for (int shard = 0; shard < router.shardCount() / 2; shard += 2) {
      plan.move(shard, SOURCE, NEW_NODE);
    }
    return plan.build();
  }

  /**
   * Waits up to {@code within} until etcd shows one of the plan's shards frozen (the mover process
   * holds a freeze); returns that shard.
   */
  static int awaitFrozenShard(
      EtcdTopologyOptions etcd, MovePlan plan, MoverProcess mover, Duration within) {
    AtomicInteger frozen = new AtomicInteger(-1);
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      Poll.until(
          within,
          "a shard of the plan to be frozen in etcd",
          () -> {
            Map<Integer, ShardAssignment> map = admin.read().assignments();
            for (int shard : plan.moves().keySet()) {
              if (map.get(shard).state() == ShardState.FROZEN) {
                frozen.set(shard);
                return true;
              }
            }
            return false;
          },
          () -> mover.describe(80));
    }
    return frozen.get();
  }

  /**
   * Prints one line per move ({@code label what: [shards ... freeze= ack=] elapsed= keysCopied=
   * keysCleanedUp=}), for the figures in docs/migration.md.
   */
  static void printGroups(String label, String what, MoveResult result) {
    StringBuilder line = new StringBuilder(label + " " + what + ":");
    for (GroupOutcome group : result.groups()) {
      line.append(
          String.format(
              " [shards %s cut=%s freeze=%.1fms ack=%.1fms]",
              group.shards(),
              group.cutOver(),
              group.freezeDuration().toNanos() / 1e6,
              group.acknowledgementWait().toNanos() / 1e6));
    }
    line.append(" elapsed=")
        .append(result.elapsed().toMillis())
        .append("ms keysCopied=")
        .append(result.progress().keysCopied())
        .append(" keysCleanedUp=")
        .append(result.progress().keysCleanedUp());
    System.out.println(line);
  }

  static BitSet bits(Iterable<Integer> shards) {
    BitSet bits = new BitSet();
    shards.forEach(bits::set);
    return bits;
  }

  Map<Integer, ShardAssignment> map() {
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      return admin.read().assignments();
    }
  }

  /** The first key {@code prefix<n>} of {@code shard}. */
  String keyOfShard(int shard, String prefix) {
    for (int index = 0; ; index++) {
      if (router.shardOfUtf8(prefix + index) == shard) {
        return prefix + index;
      }
    }
  }

  /** Every key on exactly its owner, with the load's and the data's values and TTLs. */
  void assertEveryKeyOnItsOwner(MoverLoad load, Data data) throws Exception {
    OwnerCheck.assertEveryKeyOnItsOwner(
        etcd, servers(), router, load, data.values(), data.withTtl());
  }

  /** No migration record and no lock left in etcd. */
  void assertNoRecordAndNoLock() {
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).as("migration records").isEmpty();
      assertThat(store.readLock()).as("migration lock").isEmpty();
    }
  }
}
