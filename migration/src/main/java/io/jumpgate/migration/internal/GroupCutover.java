package io.jumpgate.migration.internal;

import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MigrationException;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.MigrationConflictException;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.RegisteredClient;
import io.jumpgate.topology.StoredShard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at cutting a group of shards over, as the contract orders it: freeze (one
 * transaction); wait, without polling etcd, until every registered client's {@code drained} is at
 * least the freeze revision, bounded; {@code CLIENT LIST} on the source (a connection of an unknown
 * or stale Jumpgate client blocks like a missing acknowledgement); drain the copier's change stream
 * for the group; the cutover transaction; {@code markCutOver} on the copier. Anything that blocks
 * gives the group up: the same transaction with the old leader, nothing moved.
 *
 * <p>Offline (a pair without change capture) there is no catch-up before the freeze and no drain:
 * once every client acknowledged and the source's connections are clear, the whole group is copied
 * while frozen ({@link MovePair#copyFrozenGroup}), then cut over. A copy that fails gives the group
 * up like a missing acknowledgement; its partial copy is removed by the next try or the cleanup.
 *
 * <p>Not thread-safe: the mover's thread. Keeps {@code current} (the shard entries as last written)
 * up to date.
 */
public final class GroupCutover {

  private static final Logger LOG = LoggerFactory.getLogger(GroupCutover.class);

  /** How soon the source's connections are listed again while one of them blocks. */
  private static final long CONNECTION_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final MigrationStore store;
  private final String migrationId;
  private final long lockCreateRevision;
  private final RegistryTracker registry;
  private final MoverOptions options;
  private final Map<Integer, StoredShard> current;

  public GroupCutover(
      MigrationStore store,
      String migrationId,
      long lockCreateRevision,
      RegistryTracker registry,
      MoverOptions options,
      Map<Integer, StoredShard> current) {
    this.store = store;
    this.migrationId = migrationId;
    this.lockCreateRevision = lockCreateRevision;
    this.registry = registry;
    this.options = options;
    this.current = current;
  }

  /** What the wait for the acknowledgements found. */
  private record Wait(List<String> blockers, List<String> others) {}

  /**
   * Tries once to cut {@code group} over from the pair's source to its target.
   *
   * @throws MigrationConflictException if a transaction lost its compare (the lock is gone or a
   *     shard changed under the mover): the migration cannot go on
   */
  public GroupOutcome attempt(
      MovePair pair, List<Integer> group, int attempt, SourceConnectionCheck connections) {
    BitSet bits = new BitSet();
    group.forEach(bits::set);
    ensureMigrating(pair, group);
    if (!pair.offline()) {
      pair.copier().catchUp(options.catchUpBeforeFreeze());
    }

    MigrationStore.ShardsWritten frozen =
        store.freeze(migrationId, entries(group), lockCreateRevision);
    long frozenAt = System.nanoTime();
    current.putAll(frozen.shards());
    long revision = frozen.revision();
    Wait wait;
    long acknowledged;
    try {
      wait = awaitAcknowledgements(revision, frozenAt, connections);
      acknowledged = System.nanoTime();
      List<String> blockers = new ArrayList<>(wait.blockers());
      if (blockers.isEmpty() && pair.offline()) {
        try {
          long copyStart = System.nanoTime();
          OfflineCopier.GroupCopy copied = pair.copyFrozenGroup(bits);
          LOG.info(
              "migration '{}': shards {} copied offline while frozen: {} keys of {} scanned on"
                  + " '{}' in {} ms",
              migrationId,
              group,
              copied.keysCopied(),
              copied.keysScanned(),
              pair.sourceId(),
              (System.nanoTime() - copyStart) / 1_000_000);
        } catch (MigrationException e) {
          blockers.add("the copy under the freeze failed: " + e.getMessage());
        }
      } else if (blockers.isEmpty()) {
        try {
          pair.copier().drain(bits);
        } catch (MigrationException e) {
          blockers.add("the drain failed: " + e.getMessage());
        }
      }
      if (!blockers.isEmpty()) {
        current.putAll(store.giveUp(migrationId, entries(group), lockCreateRevision).shards());
        long lifted = System.nanoTime();
        LOG.warn(
            "migration '{}': shards {} stay on '{}' (attempt {}): {}",
            migrationId,
            group,
            pair.sourceId(),
            attempt,
            blockers);
        return outcome(
            pair,
            group,
            attempt,
            false,
            revision,
            frozenAt,
            acknowledged,
            lifted,
            blockers,
            wait.others());
      }
      current.putAll(store.cutOver(migrationId, entries(group), lockCreateRevision).shards());
    } catch (RuntimeException e) {
      liftQuietly(group, e);
      throw e;
    }
    long cut = System.nanoTime();
    pair.markCutOver(bits);
    return outcome(
        pair,
        group,
        attempt,
        true,
        revision,
        frozenAt,
        acknowledged,
        cut,
        List.of(),
        wait.others());
  }

  private void ensureMigrating(MovePair pair, List<Integer> group) {
    List<MigrationStore.Target> targets = new ArrayList<>();
    for (int shard : group) {
      StoredShard entry = current.get(shard);
      if (entry.assignment().state() != ShardState.MIGRATING) {
        targets.add(new MigrationStore.Target(entry, pair.targetId()));
      }
    }
    if (!targets.isEmpty()) {
      current.putAll(store.markMigrating(migrationId, targets).shards());
    }
  }

  private Wait awaitAcknowledgements(
      long revision, long frozenAt, SourceConnectionCheck connections) {
    long deadline = frozenAt + options.acknowledgementTimeout().toNanos();
    RegistryTracker.Observed observed = registry.observe();
    List<String> blockers = List.of("no listing of the client registry yet");
    List<String> others = List.of();
    while (true) {
      long wakeUp = deadline;
      if (observed.snapshot() != null) {
        List<RegisteredClient> waiting =
            RegistryTracker.notDrained(observed.snapshot(), revision, options.force());
        if (waiting.isEmpty()) {
          SourceConnectionCheck.Result found =
              connections.check(observed.snapshot(), revision, options.force());
          others = found.others();
          if (found.blockers().isEmpty()) {
            return new Wait(List.of(), others);
          }
          blockers = found.blockers();
          wakeUp = Math.min(deadline, System.nanoTime() + CONNECTION_RECHECK_NANOS);
        } else {
          blockers = new ArrayList<>();
          for (RegisteredClient client : waiting) {
            blockers.add(RegistryTracker.describe(client, revision));
          }
        }
      }
      if (System.nanoTime() - deadline >= 0) {
        List<String> timedOut = new ArrayList<>();
        timedOut.add(
            "not acknowledged within "
                + options.acknowledgementTimeout()
                + " of the freeze at "
                + revision);
        timedOut.addAll(blockers);
        return new Wait(timedOut, others);
      }
      try {
        observed = registry.awaitChange(observed.update(), wakeUp);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MigrationException("interrupted while waiting for acknowledgements", e);
      }
    }
  }

  private List<StoredShard> entries(List<Integer> group) {
    List<StoredShard> entries = new ArrayList<>(group.size());
    for (int shard : group) {
      entries.add(current.get(shard));
    }
    return entries;
  }

  /** After a failure under a freeze: lifts it if the shards are still frozen, keeps the error. */
  private void liftQuietly(List<Integer> group, RuntimeException cause) {
    try {
      Map<Integer, StoredShard> now = store.readShards(group);
      List<StoredShard> frozen = new ArrayList<>();
      for (StoredShard entry : now.values()) {
        if (entry.assignment().state() == ShardState.FROZEN) {
          frozen.add(entry);
        }
      }
      current.putAll(now);
      if (!frozen.isEmpty()) {
        current.putAll(store.giveUp(migrationId, frozen, lockCreateRevision).shards());
      }
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private static GroupOutcome outcome(
      MovePair pair,
      List<Integer> group,
      int attempt,
      boolean cutOver,
      long revision,
      long frozenAt,
      long acknowledged,
      long ended,
      List<String> blockers,
      List<String> others) {
    return new GroupOutcome(
        new TreeSet<>(group),
        pair.sourceId(),
        pair.targetId(),
        attempt,
        cutOver,
        revision,
        Duration.ofNanos(acknowledged - frozenAt),
        Duration.ofNanos(ended - frozenAt),
        blockers,
        others);
  }
}
