package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.ChangeCaptureUnavailableException;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MoveCancelledException;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import io.lettuce.core.KeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The mover against real etcd and redis-server processes, with driver clients running a load: a
 * live move of half of one node's shards to a new node, a hash-tagged group, a client that never
 * acknowledges, a source that refuses CONFIG SET, and a cancelled mover resumed by another.
 */
class MoverIT {

  private static final int SHARDS = 64;
  private static final int DATA_KEYS = 5_000;
  private static final String NEW_NODE = "leader-2";

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  /** Two leaders of 64 shards, and an empty third server in the node table. */
  private record Setup(
      LocalCluster cluster,
      EtcdTopologyOptions etcd,
      RedisProcess newServer,
      Xxh64JumpRouter router) {

    Map<String, RedisProcess> servers() {
      return Map.of(
          LocalCluster.leaderId(0),
          cluster.leader(0),
          LocalCluster.leaderId(1),
          cluster.leader(1),
          NEW_NODE,
          newServer);
    }
  }

  private Setup start() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "mover", SHARDS, 2, 0);
    RedisProcess newServer = fixture.redis();
    cluster.putValue(
        "nodes/" + NEW_NODE, "{\"host\":\"127.0.0.1\",\"port\":" + newServer.port() + "}");
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    return new Setup(cluster, etcd, newServer, Xxh64JumpRouter.forShards(SHARDS));
  }

  private JumpgateClient client(EtcdTopologyOptions etcd) {
    return fixture.register(
        JumpgateClient.create(
            JumpgateOptions.builder().etcd(etcd).commandTimeout(Duration.ofSeconds(2)).build()));
  }

  /** Half of leader-0's shards (it leads the even ones) to the new node. */
  private static MovePlan halfOfLeaderZero(String migrationId) {
    MovePlan.Builder plan = MovePlan.builder(migrationId);
    for (int shard = 0; shard < SHARDS / 2; shard += 2) {
      plan.move(shard, LocalCluster.leaderId(0), NEW_NODE);
    }
    return plan.build();
  }

  private static MoverOptions.Builder fastOptions() {
    return MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500));
  }

  @Test
  void should_move_half_of_a_node_live_with_no_error_when_two_clients_write() throws Exception {
    Setup setup = start();
    MoveResult result =
        moveUnderLoad(
            setup, mover -> mover.move(halfOfLeaderZero("grow-1")), fastOptions().build());

    assertThat(result.shardsCutOver()).hasSize(SHARDS / 4);
    assertThat(result.cutOverGroups()).hasSize(4);
    MoveCluster.printGroups("MOVER-TIMINGS", "live move", result);
  }

  @Test
  void should_resume_a_cancelled_migration_when_a_new_mover_runs_it() throws Exception {
    Setup setup = start();
    AtomicReference<Mover> first = new AtomicReference<>();
    MoveListener cancelAfterFirstGroup =
        new MoveListener() {
          @Override
          public void groupFinished(GroupOutcome outcome) {
            if (outcome.cutOver()) {
              first.get().cancel();
            }
          }
        };
    MoveResult result =
        moveUnderLoad(
            setup,
            mover -> {
              // Given a first mover cancelled after its first group was cut over
              try (Mover cancelled =
                  Mover.create(setup.etcd(), fastOptions().build(), cancelAfterFirstGroup)) {
                first.set(cancelled);
                assertThatThrownBy(() -> cancelled.move(halfOfLeaderZero("grow-2")))
                    .isInstanceOf(MoveCancelledException.class);
                assertThat(cancelled.progress().phase()).isEqualTo(MovePhase.CANCELLED);
                assertThat(cancelled.progress().shardsCutOver()).isEqualTo(4);
              }
              try (MigrationStore store = MigrationStore.create(setup.etcd())) {
                assertThat(store.readRecord("grow-2")).isPresent();
                assertThat(store.readLock()).isEmpty();
              }
              // When a new mover runs the same migration
              return mover.move(halfOfLeaderZero("grow-2"));
            },
            fastOptions().build());

    // Then it finishes it: the 4 shards cut over are only cleaned up, the other 12 move now
    assertThat(result.shardsCutOver()).hasSize(SHARDS / 4);
    assertThat(result.cutOverGroups()).hasSize(3);
    MoveCluster.printGroups("MOVER-TIMINGS", "resumed move", result);
  }

  interface MoveStep {
    MoveResult run(Mover mover) throws Exception;
  }

  private MoveResult moveUnderLoad(Setup setup, MoveStep step, MoverOptions options)
      throws Exception {
    JumpgateClient syncClient = client(setup.etcd());
    JumpgateClient asyncClient = client(setup.etcd());
    JumpgateCommands<String, String> sync = syncClient.connect().sync();
    // Given data written before the move, one key in five with a TTL
    List<java.util.concurrent.CompletableFuture<?>> writes = new ArrayList<>();
    var async = asyncClient.connect().async();
    for (int index = 0; index < DATA_KEYS; index++) {
      String key = "data:" + index;
      writes.add(async.set(key, "value-" + index).toCompletableFuture());
      if (index % 5 == 0) {
        writes.add(async.pexpire(key, 600_000).toCompletableFuture());
      }
    }
    for (var write : writes) {
      write.get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
    MoveResult result;
    try (MoverLoad load = new MoverLoad(sync, 3, asyncClient.connect().async(), 500);
        Mover mover = Mover.create(setup.etcd(), options)) {
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations before the move",
          () -> load.operations.get() > 2_000);
      // When the mover moves the shards while the clients write
      result = step.run(mover);
      long atEnd = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations after the move",
          () -> load.operations.get() > atEnd + 2_000);
      load.stop(Duration.ofSeconds(30));

      // Then no client saw an error, no write reached a source after its cutover
      assertThat(load.errors).isEmpty();
      assertThat(result.shardsNotMoved()).isEmpty();
      assertThat(result.writesAfterCutover()).isEmpty();
      assertEveryKeyOnItsOwner(setup, load);
    }
    try (MigrationStore store = MigrationStore.create(setup.etcd())) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
    return result;
  }

  private void assertEveryKeyOnItsOwner(Setup setup, MoverLoad load) throws Exception {
    Map<String, String> expected = new TreeMap<>();
    Map<String, Boolean> ttl = new HashMap<>();
    for (int index = 0; index < DATA_KEYS; index++) {
      expected.put("data:" + index, "value-" + index);
      ttl.put("data:" + index, index % 5 == 0);
    }
    OwnerCheck.assertEveryKeyOnItsOwner(
        setup.etcd(), setup.servers(), setup.router(), load, expected, ttl);
  }

  @Test
  void should_give_up_with_nothing_moved_when_a_client_never_acknowledges() throws Exception {
    Setup setup = start();
    int shard = 0;
    String key = keyOfShard(setup.router(), shard, "stays:");
    JumpgateClient client = client(setup.etcd());
    JumpgateCommands<String, String> redis = client.connect().sync();
    redis.set(key, "before");
    // Given a registration whose drained stays behind (a client cut off from etcd)
    setup
        .cluster()
        .putValue("clients/stale-1", "{\"host\":\"far\",\"pid\":7,\"revision\":1,\"drained\":1}");
    MoverOptions options =
        fastOptions()
            .acknowledgementTimeout(Duration.ofMillis(800))
            .groupAttempts(2)
            .retryBackoff(Duration.ofMillis(100))
            .build();
    long before;
    try (TopologyAdmin admin = TopologyAdmin.create(setup.etcd())) {
      before = admin.read().assignments().get(shard).epoch();
    }
    AtomicLong increments = new AtomicLong();
    MoveResult result;
    try (MoverLoad load = new MoverLoad(redis, 2, client.connect().async(), 50);
        Mover mover = Mover.create(setup.etcd(), options)) {
      // When the mover tries to move the shard
      result = mover.move(MovePlan.builder("stuck-1").move(shard, "leader-0", NEW_NODE).build());
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).isEmpty();
      increments.set(load.operations.get());
    }

    // Then it gave up twice, naming the client, and nothing moved
    assertThat(result.shardsCutOver()).isEmpty();
    assertThat(result.shardsNotMoved()).containsOnlyKeys(shard);
    assertThat(result.groups()).hasSize(2).noneMatch(GroupOutcome::cutOver);
    assertThat(result.groups().get(0).blockers()).anyMatch(line -> line.contains("stale-1"));
    try (TopologyAdmin admin = TopologyAdmin.create(setup.etcd())) {
      ShardAssignment after = admin.read().assignments().get(shard);
      assertThat(after.leader()).isEqualTo("leader-0");
      assertThat(after.epoch()).isEqualTo(before);
      assertThat(after.state()).isEqualTo(ShardState.ACTIVE);
      assertThat(after.migration()).isNull();
    }
    assertThat(String.valueOf(setup.cluster().leader(0).call("GET", key))).isEqualTo("before");
    assertThat(redis.get(key)).isEqualTo("before");
    try (ServerData target = new ServerData(setup.newServer())) {
      assertThat(target.keys()).as("the partial copy is removed from the target").isEmpty();
    }
    assertThat(increments.get()).isPositive();
  }

  @Test
  void should_keep_a_hash_tagged_group_usable_by_multi_key_commands_when_it_moves()
      throws Exception {
    Setup setup = start();
    int shard = setup.router().shardOfUtf8("{user1}:a");
    String from = map(setup).get(shard).leader();
    JumpgateClient client = client(setup.etcd());
    JumpgateCommands<String, String> redis = client.connect().sync();
    redis.mset(Map.of("{user1}:a", "1", "{user1}:b", "2"));

    try (Mover mover = Mover.create(setup.etcd(), fastOptions().build())) {
      MoveResult result = mover.move(MovePlan.builder("tag-1").move(shard, from, NEW_NODE).build());
      assertThat(result.shardsCutOver()).containsExactly(shard);
    }

    assertThat(map(setup).get(shard).leader()).isEqualTo(NEW_NODE);
    Poll.until(
        Duration.ofSeconds(10),
        "the client to see the new leader",
        () ->
            redis.mget("{user1}:a", "{user1}:b").stream()
                .map(KeyValue::getValue)
                .toList()
                .equals(List.of("1", "2")));
    redis.mset(Map.of("{user1}:a", "3", "{user1}:b", "4"));
    assertThat(redis.mget("{user1}:a", "{user1}:b").stream().map(KeyValue::getValue))
        .containsExactly("3", "4");
    try (ServerData target = new ServerData(setup.newServer())) {
      assertThat(target.keys()).containsExactlyInAnyOrder("{user1}:a", "{user1}:b");
      assertThat(target.sync().get("{user1}:b")).isEqualTo("4");
    }
  }

  @Test
  void should_fail_with_the_setting_to_make_and_change_nothing_when_config_set_is_refused()
      throws Exception {
    EtcdCluster etcdProcess = fixture.etcd();
    RedisProcess locked = fixture.redis("--rename-command", "CONFIG", "\"\"");
    RedisProcess target = fixture.redis();
    EtcdTopologyOptions etcd =
        EtcdTopologyOptions.builder()
            .endpoints(etcdProcess.endpointList())
            .cluster("locked")
            .build();
    Map<String, Node> nodes =
        Map.of(
            "a", Node.of("a", "127.0.0.1", locked.port()),
            "b", Node.of("b", "127.0.0.1", target.port()));
    TopologyAdminState before;
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      admin.init(nodes, 8, 0);
      before = admin.read();
    }
    int shard =
        before.assignments().values().stream()
            .filter(a -> a.leader().equals("a"))
            .findFirst()
            .orElseThrow()
            .shard();

    try (Mover mover = Mover.create(etcd, fastOptions().build())) {
      assertThatThrownBy(
              () -> mover.move(MovePlan.builder("locked-1").move(shard, "a", "b").build()))
          .isInstanceOf(ChangeCaptureUnavailableException.class)
          .hasMessageContaining("notify-keyspace-events KA")
          .satisfies(
              e ->
                  assertThat(((ChangeCaptureUnavailableException) e).requiredSetting())
                      .isEqualTo("KA"));
    }

    try (TopologyAdmin admin = TopologyAdmin.create(etcd);
        MigrationStore store = MigrationStore.create(etcd)) {
      TopologyAdminState after = admin.read();
      assertThat(after.modRevisions()).isEqualTo(before.modRevisions());
      assertThat(after.assignments()).isEqualTo(before.assignments());
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
  }

  private static Map<Integer, ShardAssignment> map(Setup setup) {
    try (TopologyAdmin admin = TopologyAdmin.create(setup.etcd())) {
      return admin.read().assignments();
    }
  }

  private static String keyOfShard(Xxh64JumpRouter router, int shard, String prefix) {
    for (int index = 0; ; index++) {
      if (router.shardOfUtf8(prefix + index) == shard) {
        return prefix + index;
      }
    }
  }
}
