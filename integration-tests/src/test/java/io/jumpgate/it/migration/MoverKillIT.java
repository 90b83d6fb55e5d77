package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.MoverProcess;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A mover in its own JVM ({@link MoverProcess}) killed with SIGKILL in each phase of a live move
 * under a driver load, then the migration finished by a new mover in this JVM from its record: no
 * client error, every INCR counted once, every key on exactly its owner with its value and TTL, no
 * record and no lock left. Killed while a group is frozen, the frozen shard must serve again once
 * the dead mover's lock expired (the drivers treat a freeze without a live lock as lifted), within
 * the lock's TTL plus the drivers' freeze bound. The source's {@code notify-keyspace-events} is
 * back to its value before the move, though the dead mover left change capture on.
 */
class MoverKillIT {

  private static final int SHARDS = 64;
  private static final int DATA_KEYS = 5_000;
  private static final String NEW_NODE = "leader-2";
  private static final String STALE_CLIENT = "clients/stale-kill";
  private static final Duration LOCK_TTL = Duration.ofSeconds(2);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(6);

  /**
   * How long clients may be held after the kill: the lock's lease runs out at most its TTL after
   * the mover's last keep-alive, and no request waits on a freeze longer than the drivers' bound.
   */
  private static final Duration PROGRESS_BOUND =
      LOCK_TTL.plus(JumpgateOptions.DEFAULT_FREEZE_MAX_WAIT);

  /** Where the mover is killed. */
  enum KillPoint {
    /** As it prints the copy phase (record written, shards migrating, the copy running). */
    COPY,
    /** While a group is frozen: a {@code frozen} shard is seen in etcd. */
    FROZEN,
    /** As it prints the cleanup phase (every shard cut over, the sources not cleaned yet). */
    CLEANUP
  }

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @ParameterizedTest
  @EnumSource(KillPoint.class)
  void should_finish_the_move_without_client_errors_when_the_mover_is_killed(KillPoint point)
      throws Exception {
    // Given two leaders of 64 shards with data, an empty third node, and two clients writing
    LocalCluster cluster = LocalCluster.start(fixture, "kill", SHARDS, 2, 0);
    RedisProcess newServer = fixture.redis();
    cluster.putValue(
        "nodes/" + NEW_NODE, "{\"host\":\"127.0.0.1\",\"port\":" + newServer.port() + "}");
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    Map<String, RedisProcess> servers =
        Map.of(
            LocalCluster.leaderId(0),
            cluster.leader(0),
            LocalCluster.leaderId(1),
            cluster.leader(1),
            NEW_NODE,
            newServer);
    JumpgateClient syncClient = client(etcd);
    JumpgateClient asyncClient = client(etcd);
    Map<String, String> data = new TreeMap<>();
    Map<String, Boolean> dataTtl = new HashMap<>();
    writeData(asyncClient, data, dataTtl);
    String migrationId = "kill-" + point.name().toLowerCase(java.util.Locale.ROOT);
    MovePlan plan = halfOfLeaderZero(migrationId);
    MoverProcess.Options options =
        MoverProcess.options(cluster.etcd().endpoints(), cluster.cluster(), migrationId)
            .lockTtl(LOCK_TTL)
            .groupSize(4)
            .cleanupGrace(Duration.ofSeconds(3));
    plan.moves().forEach((shard, move) -> options.move(shard, move.from(), move.to()));
    if (point == KillPoint.COPY) {
      options.slowCopy();
    }
    if (point == KillPoint.FROZEN) {
      // a registration that never acknowledges keeps the first group frozen for 4 s
      cluster.putValue(STALE_CLIENT, "{\"host\":\"far\",\"pid\":7,\"revision\":1,\"drained\":1}");
      options.acknowledgementTimeout(Duration.ofSeconds(4));
    }
    JumpgateCommands<String, String> sync = syncClient.connect().sync();

    try (MoverLoad load = new MoverLoad(sync, 3, asyncClient.connect().async(), 200)) {
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations before the move",
          () -> load.operations.get() > 2_000);

      Object captureBefore = cluster.leader(0).call("CONFIG", "GET", "notify-keyspace-events");

      // When a mover process is killed with SIGKILL at that point
      MoverProcess mover = MoverProcess.start(fixture, options);
      int frozenShard = -1;
      switch (point) {
        case COPY -> mover.awaitPhase("COPY", Duration.ofSeconds(30));
        case CLEANUP -> mover.awaitPhase("CLEANUP", Duration.ofSeconds(60));
        case FROZEN -> {
          mover.awaitPhase("CUTOVER", Duration.ofSeconds(60));
          frozenShard = MoveCluster.awaitFrozenShard(etcd, plan, mover, Duration.ofSeconds(10));
        }
      }
      String phaseAtKill = mover.lastPhase();
      mover.kill9();
      long killedAt = System.nanoTime();
      assertThat(mover.exitStatus()).as("exit status after SIGKILL").isEqualTo(137);
      if (point == KillPoint.FROZEN) {
        cluster.etcd().etcdctl("del", cluster.root() + STALE_CLIENT).ok();
        // Then a request to the frozen shard is served once the dead mover's lock expired
        String key = keyOfShard(router, frozenShard, "frozen-probe:");
        sync.set(key, "after-kill");
        long probeMillis = (System.nanoTime() - killedAt) / 1_000_000;
        assertThat(probeMillis)
            .as("SET on frozen shard %d after the kill, in ms", frozenShard)
            .isLessThan(PROGRESS_BOUND.toMillis());
        data.put(key, "after-kill");
        dataTtl.put(key, false);
        System.out.println(
            "MOVER-KILL frozen shard "
                + frozenShard
                + " served again "
                + probeMillis
                + " ms after the kill");
      }
      long atKill = load.operations.get();
      Poll.until(
          PROGRESS_BOUND,
          "the clients to make progress after the kill",
          () -> load.operations.get() > atKill + 500);
      System.out.println(
          "MOVER-KILL "
              + point
              + ": killed in phase "
              + phaseAtKill
              + "; 500 operations "
              + (System.nanoTime() - killedAt) / 1_000_000
              + " ms after the kill");

      // When a new mover finishes the migration, once the dead mover's lock expired
      MoveResult result;
      try (MigrationStore store = MigrationStore.create(etcd)) {
        Poll.until(
            LOCK_TTL.plusSeconds(10),
            "the dead mover's lock to expire",
            () -> store.readLock().isEmpty());
      }
      try (Mover resumer =
          Mover.create(
              etcd,
              MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500)).build())) {
        result = resumer.move(plan);
      }

      // Then every shard moved, no client saw an error, every key is on its owner
      long atEnd = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations after the move",
          () -> load.operations.get() > atEnd + 2_000);
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).isEmpty();
      assertThat(result.shardsNotMoved()).isEmpty();
      assertThat(result.writesAfterCutover()).isEmpty();
      try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
        Map<Integer, ShardAssignment> map = admin.read().assignments();
        for (int shard : plan.moves().keySet()) {
          assertThat(map.get(shard).leader()).as("leader of shard %d", shard).isEqualTo(NEW_NODE);
        }
      }
      OwnerCheck.assertEveryKeyOnItsOwner(etcd, servers, router, load, data, dataTtl);
      // and the source's change capture setting is the one it had before the move, not the dead
      // mover's
      Object captureAfter = cluster.leader(0).call("CONFIG", "GET", "notify-keyspace-events");
      System.out.println(
          "MOVER-KILL "
              + point
              + ": notify-keyspace-events on the source before the move "
              + captureBefore
              + ", after the resume "
              + captureAfter);
      assertThat(captureBefore).isEqualTo(List.of("notify-keyspace-events", ""));
      assertThat(captureAfter)
          .as("notify-keyspace-events on the source after the resume")
          .isEqualTo(captureBefore);
    }
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
  }

  private JumpgateClient client(EtcdTopologyOptions etcd) {
    return fixture.register(
        JumpgateClient.create(
            JumpgateOptions.builder().etcd(etcd).commandTimeout(COMMAND_TIMEOUT).build()));
  }

  /** Data written before the move, one key in five with a TTL. */
  private static void writeData(
      JumpgateClient client, Map<String, String> data, Map<String, Boolean> dataTtl)
      throws Exception {
    var async = client.connect().async();
    List<CompletableFuture<?>> writes = new ArrayList<>();
    for (int index = 0; index < DATA_KEYS; index++) {
      String key = "data:" + index;
      data.put(key, "value-" + index);
      dataTtl.put(key, index % 5 == 0);
      writes.add(async.set(key, "value-" + index).toCompletableFuture());
      if (index % 5 == 0) {
        writes.add(async.pexpire(key, 600_000).toCompletableFuture());
      }
    }
    for (CompletableFuture<?> write : writes) {
      write.get(30, TimeUnit.SECONDS);
    }
  }

  /** Half of leader-0's shards (it leads the even ones) to the new node. */
  private static MovePlan halfOfLeaderZero(String migrationId) {
    MovePlan.Builder plan = MovePlan.builder(migrationId);
    for (int shard = 0; shard < SHARDS / 2; shard += 2) {
      plan.move(shard, LocalCluster.leaderId(0), NEW_NODE);
    }
    return plan.build();
  }

  private static String keyOfShard(Xxh64JumpRouter router, int shard, String prefix) {
    for (int index = 0; index < 1_000_000; index++) {
      if (router.shardOfUtf8(prefix + index) == shard) {
        return prefix + index;
      }
    }
    throw new IllegalStateException("no key of shard " + shard + " among a million");
  }
}
