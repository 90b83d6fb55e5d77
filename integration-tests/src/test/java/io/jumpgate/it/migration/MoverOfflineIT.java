package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.MoverProcess;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.ChangeCaptureUnavailableException;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.spi.ShardState;
import io.jumpgate.testkit.Resp;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The offline mover against real etcd and redis-server processes whose default user may not run
 * {@code CONFIG SET} (ACL {@code -config|set}): the online mover refuses with nothing changed and
 * names {@code --offline}; the offline mover moves half of a node under a load of a sync and an
 * async driver client with no client error, every INCR counted once, every key on exactly its owner
 * with value and TTL, and {@code notify-keyspace-events} untouched. A mover process killed with
 * SIGKILL in the middle of an offline copy (a group frozen, part of it on the target) is resumed by
 * a mover without the option, which goes on offline because the record says so; or aborted, which
 * leaves every shard active on its source and nothing on the target.
 */
class MoverOfflineIT {

  private static final int SHARDS = 64;
  private static final int DATA_KEYS = 5_000;
  private static final Duration LOCK_TTL = Duration.ofSeconds(2);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  /** Takes {@code CONFIG SET} away from the default user of every server, as a locked host does. */
  private static void refuseConfigSet(MoveCluster cluster) throws Exception {
    for (RedisProcess server : cluster.servers().values()) {
      assertThat(server.call("ACL", "SETUSER", "default", "-config|set")).isEqualTo("OK");
      assertThat(server.call("CONFIG", "SET", "notify-keyspace-events", "KA"))
          .as("CONFIG SET on %s after the ACL change", server.address())
          .isInstanceOf(Resp.Error.class);
    }
  }

  private static Map<String, Object> notifyKeyspaceEvents(MoveCluster cluster) throws Exception {
    Map<String, Object> settings = new HashMap<>();
    for (Map.Entry<String, RedisProcess> server : cluster.servers().entrySet()) {
      settings.put(
          server.getKey(), server.getValue().call("CONFIG", "GET", "notify-keyspace-events"));
    }
    return settings;
  }

  /**
   * Two leaders with data, an empty third node, CONFIG SET refused on all three, a sync and an
   * async client (commands bounded to {@code timeout}) and the plan moving half of the source.
   */
  private record OfflineCluster(
      MoveCluster cluster,
      Map<String, Object> settingsBefore,
      JumpgateCommands<String, String> sync,
      JumpgateClient asyncClient,
      MoveCluster.Data data,
      MovePlan plan) {

    static OfflineCluster start(
        ProcessFixture fixture, String name, Duration timeout, String migrationId)
        throws Exception {
      MoveCluster cluster = MoveCluster.start(fixture, name, SHARDS);
      refuseConfigSet(cluster);
      Map<String, Object> settingsBefore = notifyKeyspaceEvents(cluster);
      JumpgateClient syncClient = cluster.client(timeout);
      JumpgateClient asyncClient = cluster.client(timeout);
      JumpgateCommands<String, String> sync = syncClient.connect().sync();
      cluster.awaitEveryShardAnswers(sync);
      MoveCluster.Data data = MoveCluster.writeData(asyncClient.connect().async(), DATA_KEYS);
      return new OfflineCluster(
          cluster, settingsBefore, sync, asyncClient, data, cluster.halfOfSource(migrationId));
    }
  }

  @Test
  void should_move_offline_with_no_client_error_when_the_servers_refuse_config_set()
      throws Exception {
    // Given two leaders with data, an empty third node, CONFIG SET refused on all three
    OfflineCluster given =
        OfflineCluster.start(fixture, "offline", Duration.ofSeconds(2), "offline-1");
    MoveCluster cluster = given.cluster();
    Map<String, Object> settingsBefore = given.settingsBefore();
    JumpgateCommands<String, String> sync = given.sync();
    JumpgateClient asyncClient = given.asyncClient();
    MoveCluster.Data data = given.data();
    MovePlan plan = given.plan();
    Map<Integer, ShardAssignment> mapBefore = cluster.map();

    // When the online mover tries: it refuses before anything changes, naming the way out
    try (Mover online = Mover.create(cluster.etcd, MoverOptions.builder().groupSize(4).build())) {
      assertThatThrownBy(() -> online.move(plan))
          .isInstanceOf(ChangeCaptureUnavailableException.class)
          .hasMessageContaining("notify-keyspace-events KA")
          .hasMessageContaining("--offline")
          .hasMessageContaining("MoverOptions.offline(true)");
    }
    assertThat(cluster.map()).isEqualTo(mapBefore);
    cluster.assertNoRecordAndNoLock();

    // When the offline mover moves half of leader-0 while both clients write
    MoveResult result;
    try (MoverLoad load = new MoverLoad(sync, 3, asyncClient.connect().async(), 500);
        Mover mover =
            Mover.create(
                cluster.etcd,
                MoverOptions.builder()
                    .offline(true)
                    .groupSize(8)
                    .cleanupGrace(Duration.ofMillis(2500))
                    .build())) {
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations before the move",
          () -> load.operations.get() > 2_000);
      result = mover.move(plan);
      long atEnd = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations after the move",
          () -> load.operations.get() > atEnd + 2_000);
      load.stop(Duration.ofSeconds(30));

      // Then no client saw an error, every shard moved in 2 groups, every key is on its owner
      assertThat(load.errors).isEmpty();
      assertThat(result.shardsNotMoved()).isEmpty();
      assertThat(result.shardsCutOver()).isEqualTo(plan.moves().keySet());
      assertThat(result.cutOverGroups()).hasSize(2);
      assertThat(result.progress().keysCopied()).isPositive();
      assertThat(result.progress().keysCleanedUp())
          .isPositive()
          .isLessThanOrEqualTo(result.progress().keysCopied());
      cluster.assertEveryKeyOnItsOwner(load, data);
    }
    for (int shard : plan.moves().keySet()) {
      assertThat(cluster.map().get(shard).leader()).isEqualTo(MoveCluster.NEW_NODE);
    }
    // and notify-keyspace-events is as it was on every server
    assertThat(notifyKeyspaceEvents(cluster)).isEqualTo(settingsBefore);
    cluster.assertNoRecordAndNoLock();
    MoveCluster.printGroups("MOVER-OFFLINE", "offline move", result);
  }

  /**
   * Starts an offline mover process paced at 100 keys/s (the first group of about 160 keys stays
   * frozen long enough), SIGKILLs it once part of its first frozen group is on the target, checks
   * the shard is still frozen and the record offline, waits for its lock to expire and for the
   * clients to go on.
   */
  private static void killOfflineMoverInFrozenCopy(
      ProcessFixture fixture, MoveCluster cluster, MovePlan plan, MoverLoad load) throws Exception {
    String migration = plan.migrationId();
    MoverProcess.Options options =
        MoverProcess.options(
                cluster.cluster.etcd().endpoints(), cluster.cluster.cluster(), migration)
            .lockTtl(LOCK_TTL)
            .groupSize(4)
            .offline()
            .copyRate(100)
            .cleanupGrace(Duration.ofSeconds(3));
    plan.moves().forEach((shard, move) -> options.move(shard, move.from(), move.to()));
    Poll.until(
        Duration.ofSeconds(20),
        "2,000 operations before the move",
        () -> load.operations.get() > 2_000);
    MoverProcess mover = MoverProcess.start(fixture, options);
    mover.awaitPhase("CUTOVER", Duration.ofSeconds(60));
    int frozenShard =
        MoveCluster.awaitFrozenShard(cluster.etcd, plan, mover, Duration.ofSeconds(20));
    Poll.until(
        Duration.ofSeconds(10),
        "the first keys of the frozen group on the target",
        () -> (Long) cluster.newServer.call("DBSIZE") > 0,
        () -> mover.describe(40));
    mover.kill9();
    long killedAt = System.nanoTime();
    assertThat(mover.exitStatus()).as("exit status after SIGKILL").isEqualTo(137);
    assertThat(cluster.map().get(frozenShard).state())
        .as("shard %d right after the kill", frozenShard)
        .isEqualTo(ShardState.FROZEN);
    try (MigrationStore store = MigrationStore.create(cluster.etcd)) {
      assertThat(store.readRecord(migration).orElseThrow().record().mode()).isEqualTo("offline");
      Poll.until(
          LOCK_TTL.plusSeconds(10),
          "the dead mover's lock to expire",
          () -> store.readLock().isEmpty());
    }
    // the clients go on (the freeze without a live lock is lifted)
    long atKill = load.operations.get();
    Poll.until(
        Duration.ofSeconds(10),
        "the clients to make progress after the kill",
        () -> load.operations.get() > atKill + 500);
    System.out.println(
        "MOVER-OFFLINE-KILL 500 operations "
            + (System.nanoTime() - killedAt) / 1_000_000
            + " ms after the kill");
  }

  @Test
  void should_finish_offline_when_an_offline_mover_is_killed_in_the_middle_of_a_frozen_copy()
      throws Exception {
    // Given the same cluster, CONFIG SET refused, two clients writing
    OfflineCluster given =
        OfflineCluster.start(fixture, "offline-kill", Duration.ofSeconds(6), "offline-kill-1");
    MoveCluster cluster = given.cluster();
    Map<String, Object> settingsBefore = given.settingsBefore();
    JumpgateCommands<String, String> sync = given.sync();
    JumpgateClient asyncClient = given.asyncClient();
    MoveCluster.Data data = given.data();
    MovePlan plan = given.plan();

    MoveResult result;
    try (MoverLoad load = new MoverLoad(sync, 3, asyncClient.connect().async(), 200)) {
      // When a mover process is killed while its first group is frozen and half copied
      killOfflineMoverInFrozenCopy(fixture, cluster, plan, load);

      // When a mover without the offline option resumes the migration
      try (Mover resumer =
          Mover.create(
              cluster.etcd,
              MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500)).build())) {
        result = resumer.move(plan);
      }
      long atEnd = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations after the move",
          () -> load.operations.get() > atEnd + 2_000);
      load.stop(Duration.ofSeconds(30));

      // Then it went on offline (CONFIG SET is refused, so online would have failed) and moved
      // every shard, with no client error and every key on its owner
      assertThat(load.errors).isEmpty();
      assertThat(result.shardsNotMoved()).isEmpty();
      assertThat(result.shardsCutOver()).isEqualTo(plan.moves().keySet());
      assertThat(result.cutOverGroups()).hasSize(4);
      cluster.assertEveryKeyOnItsOwner(load, data);
    }
    assertThat(notifyKeyspaceEvents(cluster)).isEqualTo(settingsBefore);
    cluster.assertNoRecordAndNoLock();
    MoveCluster.printGroups("MOVER-OFFLINE", "offline move resumed after a kill", result);
  }

  @Test
  void
      should_leave_every_shard_on_its_source_and_nothing_on_the_target_when_an_offline_migration_is_aborted()
          throws Exception {
    // Given the same cluster, CONFIG SET refused, two clients writing, and an offline mover
    // killed while its first group was frozen and half copied
    OfflineCluster given =
        OfflineCluster.start(fixture, "offline-abort", Duration.ofSeconds(6), "offline-abort-1");
    MoveCluster cluster = given.cluster();
    Map<String, Object> settingsBefore = given.settingsBefore();
    JumpgateCommands<String, String> sync = given.sync();
    JumpgateClient asyncClient = given.asyncClient();
    MoveCluster.Data data = given.data();
    MovePlan plan = given.plan();
    SortedSet<Integer> keptMoved;
    try (MoverLoad load = new MoverLoad(sync, 3, asyncClient.connect().async(), 200)) {
      killOfflineMoverInFrozenCopy(fixture, cluster, plan, load);

      // When another mover aborts the migration while the clients go on writing
      try (Mover aborting =
          Mover.create(
              cluster.etcd,
              MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500)).build())) {
        keptMoved = aborting.abort("offline-abort-1");
      }
      long atEnd = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "2,000 operations after the abort",
          () -> load.operations.get() > atEnd + 2_000);
      load.stop(Duration.ofSeconds(30));

      // Then no shard moved: each is active on its source, the target holds no partial copy,
      // no client saw an error and every key is on its owner with its value and TTL
      assertThat(keptMoved).as("shards kept on the target").isEmpty();
      Map<Integer, ShardAssignment> map = cluster.map();
      for (int shard : plan.moves().keySet()) {
        assertThat(map.get(shard).leader())
            .as("leader of shard %d", shard)
            .isEqualTo(plan.moves().get(shard).from());
        assertThat(map.get(shard).state())
            .as("state of shard %d", shard)
            .isEqualTo(ShardState.ACTIVE);
      }
      assertThat(cluster.newServer.call("DBSIZE"))
          .as("keys left on the target after the abort")
          .isEqualTo(0L);
      assertThat(load.errors).isEmpty();
      cluster.assertEveryKeyOnItsOwner(load, data);
    }
    assertThat(notifyKeyspaceEvents(cluster)).isEqualTo(settingsBefore);
    cluster.assertNoRecordAndNoLock();
  }
}
