package io.jumpgate.it.topology;

import static io.jumpgate.it.topology.TopologyWriter.shardKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.Client;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.ClientRegistrySnapshot;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import io.jumpgate.topology.MigrationConflictException;
import io.jumpgate.topology.MigrationLockHeldException;
import io.jumpgate.topology.MigrationLockLease;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.MigrationStore.ShardsWritten;
import io.jumpgate.topology.MigrationStore.Target;
import io.jumpgate.topology.PlacementException;
import io.jumpgate.topology.StoredShard;
import io.jumpgate.topology.TopologyAdmin;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Migration section of the topology contract against a real etcd: the reader's held shards, the
 * admin's refusal, and the mover's transactions ({@link MigrationStore}).
 *
 * <p>The map of every test: 16 shards over n0, n1, n2; shard 5 is led by n2 with replica n0, and
 * migrates to n1.
 */
class MigrationContractIT {

  private static final String CLUSTER = "it";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int SHARD = 5;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private static EtcdTopologyOptions options(EtcdCluster etcd) {
    return EtcdTopologyOptions.builder()
        .endpoints(etcd.endpointList())
        .cluster(CLUSTER)
        .startTimeout(Duration.ofSeconds(10))
        .requestTimeout(Duration.ofSeconds(2))
        .progressInterval(Duration.ofMillis(300))
        .silenceTimeout(Duration.ofSeconds(2))
        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .build();
  }

  private EtcdTopologySource started(EtcdCluster etcd) throws Exception {
    EtcdTopologySource source = fixture.register(EtcdTopologySource.create(options(etcd)));
    source.start().toCompletableFuture().get(15, TimeUnit.SECONDS);
    return source;
  }

  private static void awaitRevision(EtcdTopologySource source, long revision) {
    Poll.until(
        WAIT,
        "the source to publish a snapshot at revision " + revision,
        () -> source.current().revision() >= revision);
  }

  /**
   * Waits for a snapshot that shows a change of {@code migration-lock} only: such a change is not a
   * change of the map, so the snapshot keeps the map's revision and is told by its content.
   */
  private static TopologySnapshot awaitLock(
      EtcdTopologySource source, String description, Predicate<TopologySnapshot> test) {
    Poll.until(WAIT, "a snapshot where " + description, () -> test.test(source.current()));
    return source.current();
  }

  private static String frozenShard(String migration) {
    return "{\"leader\":\"n2\",\"replicas\":[\"n0\"],\"epoch\":0,\"state\":\"frozen\","
        + "\"migration\":{\"id\":\""
        + migration
        + "\",\"to\":\"n1\"}}";
  }

  /** Shard 5 marked migrating, then frozen, under the lock; returns the frozen entry. */
  private static StoredShard freezeShard(MigrationStore store, MigrationLockLease lock) {
    StoredShard read = store.readShards(Set.of(SHARD)).get(SHARD);
    ShardsWritten marked = store.markMigrating("m1", List.of(new Target(read, "n1")));
    ShardsWritten frozen =
        store.freeze("m1", marked.shards().values(), lock.lock().createRevision());
    return frozen.shards().get(SHARD);
  }

  @Test
  void should_hold_a_frozen_shard_only_while_the_lock_names_its_migration() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER)) {
      writer.init(16, 3);
      EtcdTopologySource source = started(etcd);

      // A frozen shard without the lock is served as active on its leader: not held
      long frozenAt = writer.put(shardKey(SHARD), frozenShard("m1"));
      awaitRevision(source, frozenAt);
      TopologySnapshot frozen = source.current();
      assertThat(frozen.route(SHARD).state()).isEqualTo(ShardState.FROZEN);
      assertThat(frozen.route(SHARD).migration().to().id()).isEqualTo("n1");
      assertThat(frozen.hasHeldShards()).isFalse();
      assertThat(frozen.isHeld(SHARD)).isFalse();

      // The lock appears, naming the migration: the shard is held, at the same map revision
      long lockedAt =
          writer.put(
              "migration-lock",
              "{\"migration\":\"m1\",\"owner\":\"it:1\",\"since\":\"2026-11-24T10:00:00Z\"}");
      TopologySnapshot held =
          awaitLock(source, "the lock of m1 is read", snapshot -> snapshot.isHeld(SHARD));
      assertThat(held.revision()).as("the lock is not a change of the map").isEqualTo(frozenAt);
      assertThat(held.migrationLock()).isPresent();
      assertThat(held.migrationLock().get().createRevision()).isEqualTo(lockedAt);
      assertThat(held.isHeld(SHARD)).isTrue();
      assertThat(held.heldShardCount()).isEqualTo(1);

      // The lock names another migration: not held
      long otherAt =
          writer.put(
              "migration-lock",
              "{\"migration\":\"m2\",\"owner\":\"it:1\",\"since\":\"2026-11-24T10:00:00Z\"}");
      TopologySnapshot other =
          awaitLock(
              source,
              "the lock of m2 is read",
              snapshot ->
                  snapshot.migrationLock().isPresent()
                      && snapshot.migrationLock().get().migrationId().equals("m2"));
      assertThat(otherAt).isGreaterThan(lockedAt);
      assertThat(other.isHeld(SHARD)).isFalse();

      // The lock goes away: not held, the shard still frozen on its leader
      writer.put(
          "migration-lock",
          "{\"migration\":\"m1\",\"owner\":\"it:1\",\"since\":\"2026-11-24T10:00:00Z\"}");
      long releasedAt = writer.delete("migration-lock");
      Poll.until(
          WAIT,
          "the source's watch to reach revision " + releasedAt,
          () -> source.lastAppliedRevision() >= releasedAt);
      TopologySnapshot released =
          awaitLock(source, "the lock is gone", snapshot -> snapshot.migrationLock().isEmpty());
      assertThat(released.revision()).isEqualTo(frozenAt);
      assertThat(released.isHeld(SHARD)).isFalse();
      assertThat(released.route(SHARD).leader().id()).isEqualTo("n2");

      // A record under migrations/ is not a change of the map
      long before = source.current().revision();
      long recordAt = writer.put("migrations/m1", "{\"shards\":{}}");
      long nextShard = writer.put(shardKey(6), TopologyWriter.shardJson(0, 3, 1));
      awaitRevision(source, nextShard);
      assertThat(recordAt).isGreaterThan(before);
      assertThat(source.statistics().snapshotsPublished()).isPositive();
      assertThat(source.current().invalidEntries()).isEmpty();
    }
  }

  @Test
  void should_refuse_to_move_a_migrating_shard() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER);
        MigrationStore store = MigrationStore.create(options(etcd));
        TopologyAdmin admin = TopologyAdmin.create(options(etcd))) {
      writer.init(16, 3);
      StoredShard read = store.readShards(Set.of(SHARD)).get(SHARD);
      store.markMigrating("m1", List.of(new Target(read, "n1")));

      assertThatThrownBy(() -> admin.planMoveShard(SHARD, "n0"))
          .isInstanceOf(PlacementException.class)
          .hasMessage(
              "shard 5 is migrating (migration 'm1' to node 'n1'): it cannot be changed until"
                  + " that migration is finished or aborted");
      assertThat(writer.get(shardKey(SHARD))).contains("\"state\":\"migrating\"");
    }
  }

  @Test
  void should_not_cut_over_when_the_lock_was_taken_again() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER);
        MigrationStore store = MigrationStore.create(options(etcd))) {
      writer.init(16, 3);
      MigrationLockLease first = store.acquireLock("m1", "mover-a:1");
      StoredShard frozen = freezeShard(store, first);
      long firstCreated = first.lock().createRevision();
      // The first mover's lease ends (as if it expired); another mover takes the lock
      first.close();
      try (MigrationLockLease second = store.acquireLock("m1", "mover-b:2")) {
        long secondCreated = second.lock().createRevision();
        assertThat(secondCreated).isNotEqualTo(firstCreated);

        assertThatThrownBy(() -> store.cutOver("m1", List.of(frozen), firstCreated))
            .isInstanceOf(MigrationConflictException.class)
            .hasMessage(
                "cutover of migration 'm1' on cluster 'it' wrote nothing: the migration lock was"
                    + " taken again (create revision "
                    + secondCreated
                    + ", expected "
                    + firstCreated
                    + ")");
        assertThat(writer.get(shardKey(SHARD))).contains("\"state\":\"frozen\"");

        // With the lock that holds now, the same cutover goes through
        ShardsWritten cut = store.cutOver("m1", List.of(frozen), secondCreated);
        assertThat(writer.get(shardKey(SHARD)))
            .isEqualTo(
                "{\"leader\":\"n1\",\"replicas\":[\"n0\"],\"epoch\":1,\"state\":\"active\"}");
        assertThat(cut.shards().get(SHARD).modRevision()).isEqualTo(cut.revision());
      }
    }
  }

  @Test
  void should_not_cut_over_when_a_shard_key_changed_since_the_freeze() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER);
        MigrationStore store = MigrationStore.create(options(etcd));
        MigrationLockLease lock = store.acquireLock("m1", "mover-a:1")) {
      writer.init(16, 3);
      StoredShard frozen = freezeShard(store, lock);
      long changedAt = writer.put(shardKey(SHARD), frozenShard("m1"));

      assertThatThrownBy(() -> store.cutOver("m1", List.of(frozen), lock.lock().createRevision()))
          .isInstanceOf(MigrationConflictException.class)
          .hasMessage(
              "cutover of migration 'm1' on cluster 'it' wrote nothing: /jumpgate/it/shards/0005"
                  + " changed at revision "
                  + changedAt
                  + " (expected mod revision "
                  + frozen.modRevision()
                  + ")");
      assertThat(writer.get(shardKey(SHARD))).contains("\"leader\":\"n2\"");
    }
  }

  @Test
  void should_give_a_frozen_shard_up_with_its_old_leader_and_epoch() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER);
        MigrationStore store = MigrationStore.create(options(etcd));
        MigrationLockLease lock = store.acquireLock("m1", "mover-a:1")) {
      writer.init(16, 3);
      StoredShard frozen = freezeShard(store, lock);

      store.giveUp("m1", List.of(frozen), lock.lock().createRevision());

      assertThat(writer.get(shardKey(SHARD)))
          .isEqualTo("{\"leader\":\"n2\",\"replicas\":[\"n0\"],\"epoch\":0,\"state\":\"active\"}");
    }
  }

  @Test
  void should_refuse_a_second_owner_and_free_the_lock_when_its_lease_is_revoked() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER);
        MigrationStore store = MigrationStore.create(options(etcd));
        Client raw = etcd.newClient()) {
      writer.init(16, 3);
      MigrationLockLease first = store.acquireLock("m1", "mover-a:1");
      long created = first.lock().createRevision();

      assertThatThrownBy(() -> store.acquireLock("m2", "mover-b:2"))
          .isInstanceOf(MigrationLockHeldException.class)
          .hasMessageStartingWith(
              "the migration lock /jumpgate/it/migration-lock is held by 'mover-a:1' for"
                  + " migration 'm1' since ")
          .hasMessageContaining("(create revision " + created + ")")
          .hasMessageContaining("if that mover died, the lock expires within ");
      assertThat(store.readLock())
          .hasValueSatisfying(lock -> assertThat(lock.owner()).isEqualTo("mover-a:1"));

      // The lease is revoked behind the holder's back (as etcd does when it expires)
      raw.getLeaseClient().revoke(first.leaseId()).get(10, TimeUnit.SECONDS);
      first.lost().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(first.isHeld()).isFalse();
      assertThat(store.readLock()).isEmpty();
      try (MigrationLockLease second = store.acquireLock("m2", "mover-b:2")) {
        assertThat(second.lock().createRevision()).isGreaterThan(created);
        assertThat(store.readLock().orElseThrow().owner()).isEqualTo("mover-b:2");
      }
      assertThat(store.readLock()).as("released on close").isEmpty();
      first.close();
    }
  }

  @Test
  void should_see_each_client_acknowledge_through_the_registry_watch() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    try (TopologyWriter writer = new TopologyWriter(etcd.endpointList(), CLUSTER);
        MigrationStore store = MigrationStore.create(options(etcd))) {
      writer.init(16, 3);
      writer.put("clients/app-1", "{\"host\":\"a\",\"pid\":1,\"revision\":10}");
      AtomicReference<ClientRegistrySnapshot> last = new AtomicReference<>();
      try (AutoCloseable watch = store.watchClients(last::set)) {
        Poll.until(WAIT, "the first registry", () -> last.get() != null);
        assertThat(last.get().clients()).containsOnlyKeys("app-1");
        assertThat(last.get().notDrained(10))
            .extracting(c -> c.clientId())
            .containsExactly("app-1");

        long acknowledged =
            writer.put(
                "clients/app-1", "{\"host\":\"a\",\"pid\":1,\"revision\":30,\"drained\":30}");
        Poll.until(
            WAIT,
            "app-1 to acknowledge revision 30 (revision " + acknowledged + ")",
            () -> last.get().allDrained(30));
        writer.put("clients/app-2", "{\"host\":\"b\",\"pid\":2,\"revision\":30}");
        Poll.until(
            WAIT, "app-2 to appear, not drained", () -> last.get().clients().containsKey("app-2"));
        assertThat(last.get().allDrained(30)).isFalse();
        writer.delete("clients/app-2");
        Poll.until(WAIT, "app-2 to leave", () -> last.get().allDrained(30));
      }
      assertThat(store.readClients().clients()).containsOnlyKeys("app-1");
    }
  }
}
