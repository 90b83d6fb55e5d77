package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.it.fixture.MoverProcess;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MoveCancelledException;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Mover#abort} of a migration cancelled after some of its shards were cut over, against real
 * etcd and redis-server processes, while two driver clients write: the shards cut over stay on the
 * target and leave the source, the others stay on the source and leave no partial copy on the
 * target, etcd keeps no record and no lock, and no client sees an error. The source's {@code
 * notify-keyspace-events} is back to its value before the move, also when the mover that switched
 * change capture on was killed.
 */
class MoverAbortIT {

  private static final int SHARDS = 64;
  private static final int DATA_KEYS = 4_000;
  private static final String MIGRATION = "abort-1";

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_keep_cut_over_shards_on_the_target_and_the_others_on_the_source_when_aborted()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "abort", SHARDS);
    JumpgateClient syncClient = setup.client(Duration.ofSeconds(2));
    JumpgateClient asyncClient = setup.client(Duration.ofSeconds(2));
    MoveCluster.Data data = MoveCluster.writeData(asyncClient.connect().async(), DATA_KEYS);
    MovePlan plan = setup.halfOfSource(MIGRATION);
    MoverOptions options =
        MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500)).build();
    AtomicReference<Mover> first = new AtomicReference<>();
    AtomicReference<SortedSet<Integer>> firstGroup = new AtomicReference<>();
    MoveListener cancelAfterFirstGroup =
        new MoveListener() {
          @Override
          public void groupFinished(GroupOutcome outcome) {
            if (outcome.cutOver() && firstGroup.compareAndSet(null, outcome.shards())) {
              first.get().cancel();
            }
          }
        };

    try (MoverLoad load =
        new MoverLoad(syncClient.connect().sync(), 3, asyncClient.connect().async(), 200)) {
      Poll.until(
          Duration.ofSeconds(20),
          "1,000 operations before the move",
          () -> load.operations.get() > 1_000);

      // Given a migration cancelled after its first group was cut over
      try (Mover cancelled = Mover.create(setup.etcd, options, cancelAfterFirstGroup)) {
        first.set(cancelled);
        assertThatThrownBy(() -> cancelled.move(plan)).isInstanceOf(MoveCancelledException.class);
      }
      SortedSet<Integer> cutOver = firstGroup.get();
      assertThat(cutOver).hasSize(4);
      SortedSet<Integer> stayed = new TreeSet<>(plan.moves().keySet());
      stayed.removeAll(cutOver);
      assertThat(stayed).hasSize(12);
      try (ServerData target = new ServerData(setup.newServer)) {
        assertThat(target.keysOf(setup.router, MoveCluster.bits(stayed)))
            .as("the copy phase left partial copies on the target, for the abort to remove")
            .isNotEmpty();
      }
      try (ServerData source = new ServerData(setup.source())) {
        assertThat(source.keysOf(setup.router, MoveCluster.bits(cutOver)))
            .as("the cancelled run did not clean the source up")
            .isNotEmpty();
      }

      // When another mover aborts it while the clients go on writing
      SortedSet<Integer> keptMoved;
      try (Mover aborting = Mover.create(setup.etcd, options)) {
        keptMoved = aborting.abort(MIGRATION);
      }

      // Then the shards cut over stay moved, the others are active on the source again
      assertThat(keptMoved).isEqualTo(cutOver);
      Map<Integer, ShardAssignment> map = setup.map();
      for (int shard : plan.moves().keySet()) {
        ShardAssignment assignment = map.get(shard);
        assertThat(assignment.state()).as("state of shard %d", shard).isEqualTo(ShardState.ACTIVE);
        assertThat(assignment.migration()).as("migration of shard %d", shard).isNull();
        assertThat(assignment.leader())
            .as("leader of shard %d", shard)
            .isEqualTo(cutOver.contains(shard) ? MoveCluster.NEW_NODE : MoveCluster.SOURCE);
      }
      setup.assertNoRecordAndNoLock();
      // and the source's change capture setting is back to its value before the move
      assertThat(setup.source().call("CONFIG", "GET", "notify-keyspace-events"))
          .isEqualTo(List.of("notify-keyspace-events", ""));
      // and the target holds only the keys of the shards cut over, the source none of them
      try (ServerData target = new ServerData(setup.newServer);
          ServerData source = new ServerData(setup.source())) {
        BitSet targetShards = new BitSet();
        target.keys().forEach(key -> targetShards.set(setup.router.shardOfUtf8(key)));
        assertThat(targetShards.stream().boxed().toList()).isSubsetOf(cutOver).isNotEmpty();
        assertThat(source.keysOf(setup.router, MoveCluster.bits(cutOver))).isEmpty();
      }
      long atAbort = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "1,000 operations after the abort",
          () -> load.operations.get() > atAbort + 1_000);
      load.stop(Duration.ofSeconds(30));

      // and no client saw an error, every key is on exactly its owner with its value
      assertThat(load.errors).isEmpty();
      setup.assertEveryKeyOnItsOwner(load, data);
    }
    try (MigrationStore store = MigrationStore.create(setup.etcd)) {
      assertThat(store.readRecord(MIGRATION)).isEmpty();
    }
  }

  @Test
  void should_put_the_sources_notify_keyspace_events_back_when_aborting_for_a_killed_mover()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "abort-kill", SHARDS);
    JumpgateClient client = setup.client(Duration.ofSeconds(2));
    MoveCluster.writeData(client.connect().async(), DATA_KEYS);
    MovePlan plan = setup.halfOfSource(MIGRATION);
    Object captureBefore = setup.source().call("CONFIG", "GET", "notify-keyspace-events");
    assertThat(captureBefore).isEqualTo(List.of("notify-keyspace-events", ""));

    // Given a mover process killed with SIGKILL while it copies (change capture on the source)
    MoverProcess.Options moverOptions =
        MoverProcess.options(setup.cluster.etcd().endpoints(), setup.cluster.cluster(), MIGRATION)
            .lockTtl(Duration.ofSeconds(2))
            .slowCopy();
    plan.moves().forEach((shard, move) -> moverOptions.move(shard, move.from(), move.to()));
    MoverProcess mover = MoverProcess.start(fixture, moverOptions);
    mover.awaitPhase("COPY", Duration.ofSeconds(30));
    mover.kill9();
    assertThat(mover.exitStatus()).as("exit status after SIGKILL").isEqualTo(137);
    assertThat(setup.source().call("CONFIG", "GET", "notify-keyspace-events"))
        .as("the dead mover's change capture, left on the source")
        .isNotEqualTo(captureBefore);

    // When another mover aborts it once the dead mover's lock expired
    try (MigrationStore store = MigrationStore.create(setup.etcd)) {
      Poll.until(
          Duration.ofSeconds(12),
          "the dead mover's lock to expire",
          () -> store.readLock().isEmpty());
    }
    SortedSet<Integer> keptMoved;
    try (Mover aborting =
        Mover.create(
            setup.etcd,
            MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500)).build())) {
      keptMoved = aborting.abort(MIGRATION);
    }

    // Then no shard moved, and the source's setting is the one it had before the move
    assertThat(keptMoved).isEmpty();
    Map<Integer, ShardAssignment> map = setup.map();
    for (int shard : plan.moves().keySet()) {
      assertThat(map.get(shard).leader())
          .as("leader of shard %d", shard)
          .isEqualTo(MoveCluster.SOURCE);
      assertThat(map.get(shard).state())
          .as("state of shard %d", shard)
          .isEqualTo(ShardState.ACTIVE);
    }
    setup.assertNoRecordAndNoLock();
    assertThat(setup.source().call("CONFIG", "GET", "notify-keyspace-events"))
        .as("notify-keyspace-events on the source after the abort")
        .isEqualTo(captureBefore);
    try (ServerData target = new ServerData(setup.newServer)) {
      assertThat(target.keys()).as("partial copies left on the target").isEmpty();
    }
    try (ServerData source = new ServerData(setup.source())) {
      assertThat(source.keysOf(setup.router, MoveCluster.bits(plan.moves().keySet())))
          .as("keys of the moved shards still on the source")
          .isNotEmpty();
    }
  }
}
