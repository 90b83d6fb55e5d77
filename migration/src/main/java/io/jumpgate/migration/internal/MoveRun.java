package io.jumpgate.migration.internal;

import io.jumpgate.migration.ChangeCaptureLostException;
import io.jumpgate.migration.CopyProgress;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MigrationException;
import io.jumpgate.migration.MoveCancelledException;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.topology.MigrationLockLease;
import io.jumpgate.topology.MigrationRecord;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.StoredShard;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a migration once its lock is held, its record written and its copiers prepared (by
 * {@link MoveStart}, handed over by {@link #start}): copy, cutover group by group with bounded
 * retries, cleanup after the grace period, then the record deleted and the lock released. A failure
 * or a cancel leaves the record (a later run resumes it) and releases the lock. Offline pairs copy
 * nothing in the copy phase: each group is copied while frozen, in its cutover.
 *
 * <p>{@link #run()} on one thread; {@link #progress()} and {@link #cancel()} from any thread.
 */
public final class MoveRun {

  private static final Logger LOG = LoggerFactory.getLogger(MoveRun.class);

  public static final String PHASE_COPYING = "copying";
  public static final String PHASE_CUT_OVER = "cut-over";

  /** A group of shards of one pair waiting for its cutover. */
  private record Group(MovePair pair, List<Integer> shards, int attempt, long notBeforeNanos) {}

  private final MigrationStore store;
  private final MoverOptions options;
  private final MoveListener listener;
  private final SortedMap<Integer, String> notMoved = new TreeMap<>();
  private final TreeSet<Integer> cutOver = new TreeSet<>();
  private final List<GroupOutcome> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final CountDownLatch cancelled = new CountDownLatch(1);
  private final long startNanos = System.nanoTime();

  // Set once by start(), before run(); read by progress() from any thread.
  private volatile String migrationId = "";
  private volatile List<MovePair> pairs = List.of();
  private volatile int shardsTotal;
  private MigrationLockLease lease;
  private Map<Integer, StoredShard> current;
  private Map<String, BitSet> cleanupOnly;
  private Map<String, io.jumpgate.migration.ServerAddress> cleanupOnlyAddresses;
  private Map<String, io.jumpgate.migration.ServerAddress> recordedSourceAddresses;
  private Xxh64JumpRouter router;
  private int groupSize;

  private MigrationRecord record;
  private long recordRevision;
  private long lastCutOverNanos = System.nanoTime();
  private volatile MovePhase phase = MovePhase.PREPARE;
  private volatile int groupsGivenUp;
  private volatile long keysRemovedWithoutCopier;

  private MoveRun(MigrationStore store, MoverOptions options, MoveListener listener) {
    this.store = store;
    this.options = options;
    this.listener = listener;
  }

  /** A run in its prepare phase: progress and cancel work already. */
  public static MoveRun starting(
      MigrationStore store, MoverOptions options, MoveListener listener) {
    return new MoveRun(store, options, listener);
  }

  /** Takes over what the prepare phase set up. */
  public void start(MoveStart.Started started) {
    this.migrationId = started.migrationId();
    this.lease = started.lease();
    this.current = started.current();
    this.cleanupOnly = started.cleanupOnly();
    this.cleanupOnlyAddresses = started.cleanupOnlyAddresses();
    this.recordedSourceAddresses = started.recordedSourceAddresses();
    this.router = Xxh64JumpRouter.forShards(started.shardCount());
    this.record = started.record();
    this.recordRevision = started.recordRevision();
    this.groupSize = options.groupSize(started.offline());
    synchronized (this) {
      this.notMoved.putAll(started.notMoved());
      this.cutOver.addAll(started.alreadyCutOver());
    }
    this.shardsTotal = record.shards().size();
    this.pairs = started.pairs();
  }

  /** Copies, cuts over, cleans up; the lock is released whatever happens. */
  public MoveResult run() {
    RegistryTracker registry = new RegistryTracker();
    AutoCloseable watch = null;
    ServerConnections connections =
        new ServerConnections(
            options.copier().connectTimeout(), options.copier().commandTimeout(), 10_000);
    try {
      watch = store.watchClients(registry);
      enter(MovePhase.COPY);
      for (MovePair pair : pairs) {
        checkRunning();
        pair.copy();
      }
      enter(MovePhase.CUTOVER);
      cutOverAll(registry, connections);
      enter(MovePhase.CLEANUP);
      SortedMap<Integer, Long> writesAfterCutover = cleanup(connections);
      store.deleteRecord(migrationId, recordRevision);
      enter(MovePhase.DONE);
      MoveResult result =
          new MoveResult(
              migrationId,
              cutOver,
              notMoved,
              outcomes,
              progress(),
              writesAfterCutover,
              Duration.ofNanos(System.nanoTime() - startNanos));
      LOG.info(
          "migration '{}' done: {} shards cut over, {} not moved, {} writes after cutover",
          migrationId,
          cutOver.size(),
          notMoved.size(),
          result.writesAfterCutoverTotal());
      return result;
    } catch (RuntimeException e) {
      phase = e instanceof MoveCancelledException ? MovePhase.CANCELLED : MovePhase.FAILED;
      LOG.warn(
          "migration '{}' stopped in {}: {}; its record stays for a resume",
          migrationId,
          phase,
          e.getMessage());
      closePairs(e);
      throw e;
    } finally {
      closeQuietly(watch);
      connections.close();
      lease.close();
    }
  }

  /** Asks the run to stop at the next step; any thread. */
  public void cancel() {
    cancelled.countDown();
  }

  /** The counters now; any thread. */
  public MoveProgress progress() {
    long[] sums = new long[6];
    for (MovePair pair : pairs) {
      CopyProgress p = pair.progress();
      sums[0] += p.keysCopied();
      sums[1] += p.keysRecopied();
      sums[2] += p.bytesCopied();
      sums[3] += p.keysPending();
      sums[4] += p.keysCleanedUp();
      sums[5] += p.writesAfterCutover();
    }
    int cut;
    int stayed;
    synchronized (this) {
      cut = cutOver.size();
      stayed = notMoved.size();
    }
    return new MoveProgress(
        migrationId,
        phase,
        shardsTotal,
        cut,
        stayed,
        outcomes.size(),
        groupsGivenUp,
        sums[0],
        sums[1],
        sums[2],
        sums[3],
        sums[4] + keysRemovedWithoutCopier,
        sums[5]);
  }

  private void cutOverAll(RegistryTracker registry, ServerConnections connections) {
    GroupCutover cutover =
        new GroupCutover(
            store, migrationId, lease.lock().createRevision(), registry, options, current);
    Map<MovePair, SourceConnectionCheck> checks = new java.util.HashMap<>();
    Deque<Group> queue = new ArrayDeque<>();
    for (MovePair pair : pairs) {
      List<Integer> group = new ArrayList<>();
      BitSet remaining = pair.remaining();
      for (int shard = remaining.nextSetBit(0);
          shard >= 0;
          shard = remaining.nextSetBit(shard + 1)) {
        group.add(shard);
        if (group.size() == groupSize) {
          queue.add(new Group(pair, group, 1, 0));
          group = new ArrayList<>();
        }
      }
      if (!group.isEmpty()) {
        queue.add(new Group(pair, group, 1, 0));
      }
      checks.put(
          pair,
          new SourceConnectionCheck(
              connections.connect(pair.source(), "client list"),
              "source " + pair.sourceId() + " (" + pair.source() + ")",
              options.copier().commandTimeout()));
    }
    while (!queue.isEmpty()) {
      Group group = queue.poll();
      waitUntil(group.notBeforeNanos());
      checkRunning();
      group.pair().recopyIfLost();
      GroupOutcome outcome;
      try {
        outcome =
            cutover.attempt(
                group.pair(), group.shards(), group.attempt(), checks.get(group.pair()));
      } catch (ChangeCaptureLostException e) {
        // Lost after recopyIfLost looked, found by the catch-up before the freeze (or by a step
        // after it, which lifted the freeze first): copy the pair's shards again, then try the
        // same group again. Bounded by the pair's recopy limit.
        LOG.warn(
            "migration '{}': change capture lost before the cutover of shards {}: {}",
            migrationId,
            group.shards(),
            e.getMessage());
        queue.addFirst(group);
        continue;
      }
      outcomes.add(outcome);
      if (outcome.cutOver()) {
        lastCutOverNanos = System.nanoTime();
        synchronized (this) {
          cutOver.addAll(group.shards());
        }
        updateRecord(group.shards(), PHASE_CUT_OVER);
      } else {
        groupsGivenUp++;
        if (group.attempt() < options.groupAttempts()) {
          queue.add(
              new Group(
                  group.pair(),
                  group.shards(),
                  group.attempt() + 1,
                  System.nanoTime() + options.retryBackoff().toNanos()));
        } else {
          BitSet bits = new BitSet();
          group.shards().forEach(bits::set);
          group.pair().markNotMoved(bits);
          String reason =
              "not cut over after " + group.attempt() + " attempts: " + outcome.blockers();
          synchronized (this) {
            group.shards().forEach(shard -> notMoved.put(shard, reason));
          }
        }
      }
      listener.groupFinished(outcome);
    }
  }

  private SortedMap<Integer, Long> cleanup(ServerConnections connections) {
    if (!cutOver.isEmpty()) {
      waitUntil(lastCutOverNanos + options.cleanupGrace().toNanos());
      checkRunning();
    }
    KeyRemover remover =
        new KeyRemover(
            router,
            options.copier().scanCount(),
            options.copier().cleanupBatchSize(),
            options.copier().cleanupKeysPerSecond(),
            options.copier().commandTimeout());
    SortedMap<Integer, Long> writesAfterCutover = new TreeMap<>();
    for (MovePair pair : pairs) {
      if (pair.shards().intersects(bits(cutOver))) {
        pair.cleanup();
      }
      pair.writesAfterCutover()
          .forEach((shard, writes) -> writesAfterCutover.merge(shard, writes, Long::sum));
    }
    for (Map.Entry<String, BitSet> entry : cleanupOnly.entrySet()) {
      io.jumpgate.migration.ServerAddress address = cleanupOnlyAddresses.get(entry.getKey());
      keysRemovedWithoutCopier +=
          remover.remove(
              connections.connect(address, "cleanup"),
              entry.getValue(),
              "source " + entry.getKey() + " (" + address + ")");
    }
    writesAfterCutover.forEach(
        (shard, writes) ->
            LOG.error(
                "migration '{}': {} write(s) reached the old leader of shard {} after its cutover:"
                    + " lost (a client that does not take part, or a bug)",
                migrationId,
                writes,
                shard));
    closePairs(null);
    // The copiers restored what they were told; a source cleaned up without a copier (its mover
    // died in the cleanup) and a copier that failed to restore are caught here.
    OriginalNotifyKeyspaceEvents.restore(
        migrationId,
        record.notifyKeyspaceEvents(),
        recordedSourceAddresses,
        connections,
        options.copier().commandTimeout());
    for (MovePair pair : pairs) {
      BitSet stayed = pair.notMoved();
      if (!stayed.isEmpty()) {
        long removed =
            remover.remove(
                connections.connect(pair.target(), "partial copies"),
                stayed,
                "target " + pair.targetId() + " (" + pair.target() + ")");
        LOG.info(
            "migration '{}': removed {} keys of shards {} (not moved) from target '{}'",
            migrationId,
            removed,
            stayed,
            pair.targetId());
      }
    }
    return writesAfterCutover;
  }

  private void updateRecord(List<Integer> shards, String newPhase) {
    MigrationRecord updated = record;
    for (int shard : shards) {
      updated = updated.withShard(shard, updated.shards().get(shard).withPhase(newPhase));
    }
    recordRevision = store.updateRecord(migrationId, updated, recordRevision);
    record = updated;
  }

  private void enter(MovePhase next) {
    checkRunning();
    phase = next;
    LOG.info("migration '{}': {}", migrationId, next);
    listener.phaseStarted(next);
    checkRunning();
  }

  private void checkRunning() {
    if (cancelled.getCount() == 0) {
      throw new MoveCancelledException(
          "migration '"
              + migrationId
              + "' cancelled in "
              + phase
              + ": no shard is frozen; its record stays, resume or abort it");
    }
    if (!lease.isHeld()) {
      throw new MigrationException(
          "migration '"
              + migrationId
              + "' lost its lock "
              + store.keys().migrationLock()
              + " (its lease expired: clients serve the frozen shards from their old leaders);"
              + " its record stays, resume it");
    }
  }

  /** Sleeps until {@code deadlineNanos} or a cancel, whichever comes first. */
  private void waitUntil(long deadlineNanos) {
    long left = deadlineNanos - System.nanoTime();
    if (left <= 0) {
      return;
    }
    try {
      cancelled.await(left, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MigrationException("migration '" + migrationId + "' interrupted", e);
    }
  }

  private void closePairs(RuntimeException failure) {
    for (MovePair pair : pairs) {
      try {
        pair.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          LOG.error("migration '{}': {}", migrationId, e.getMessage());
        } else {
          failure.addSuppressed(e);
        }
      }
    }
  }

  private static BitSet bits(Iterable<Integer> shards) {
    BitSet bits = new BitSet();
    shards.forEach(bits::set);
    return bits;
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.debug("closing the registry watch failed", e);
    }
  }
}
