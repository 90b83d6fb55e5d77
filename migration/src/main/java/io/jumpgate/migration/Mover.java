package io.jumpgate.migration;

import io.jumpgate.migration.internal.MoveAbort;
import io.jumpgate.migration.internal.MoveRun;
import io.jumpgate.migration.internal.MoveStart;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.TopologyAdmin;
import java.util.Objects;

/**
 * Moves the data of virtual shards between RESP servers live, coordinated through etcd with the
 * drivers (the topology contract's Migration section), so that no client sees an error and no write
 * is lost. For a {@link MovePlan}:
 *
 * <ol>
 *   <li><b>prepare</b>: takes the cluster's migration lock (lease-bound), switches on change
 *       capture on every source (one {@link ShardCopier} per (source, target) pair; a source that
 *       refuses {@code CONFIG SET} fails here with {@link ChangeCaptureUnavailableException}, and
 *       etcd is left as it was), writes the persistent record, marks the shards {@code migrating}.
 *   <li><b>copy</b>: the SCAN pass and catch-up of every pair.
 *   <li><b>cutover</b>, a group of {@link MoverOptions#groupSize()} shards at a time: freeze (one
 *       transaction); wait, watching the registry (no polling), until every registered client's
 *       {@code drained} reaches the freeze revision; {@code CLIENT LIST} on the source, where a
 *       connection named for an unknown or stale client blocks like a missing acknowledgement;
 *       drain the change stream; the cutover transaction; {@code markCutOver}. If anything blocks
 *       within {@link MoverOptions#acknowledgementTimeout()}, the freeze is lifted with nothing
 *       moved and the group is tried again later, {@link MoverOptions#groupAttempts()} times in
 *       all, then reported in {@link MoveResult#shardsNotMoved()}.
 *   <li><b>cleanup</b>: after {@link MoverOptions#cleanupGrace()}, the moved keys are removed from
 *       the sources (throttled); writes that reached a source after their shard's cutover are
 *       counted and logged ({@link MoveResult#writesAfterCutover()}); the copiers restore {@code
 *       notify-keyspace-events}; the partial copies of shards not moved are removed from the
 *       targets; the record is deleted and the lock released.
 * </ol>
 *
 * <p><b>Offline</b> ({@link MoverOptions#offline()}): no change capture and no {@code CONFIG SET};
 * the copy phase copies nothing, and each group is frozen, acknowledged, copied while frozen (a
 * SCAN of its whole source) and cut over, so its shards stay frozen for the whole copy. The record
 * says {@code "mode":"offline"} and a resume of it stays offline.
 *
 * <p><b>Resume.</b> {@link #move} of an id whose record exists, or {@link #resume}, finishes that
 * migration: shards the map shows led by their target are only cleaned up, the others are copied
 * again from scratch. A lock held by a live mover refuses with {@link MoveRefusedException} naming
 * the owner. {@link #abort} lifts every freeze, removes the partial copies and deletes the record.
 *
 * <p><b>Threads.</b> {@link #move}, {@link #resume} and {@link #abort} block the calling thread
 * (never call them on a Netty or jetcd thread), every wait bounded; one at a time per mover (a
 * second concurrent call gets {@link IllegalStateException}). {@link #progress()} and {@link
 * #cancel()} may be called from any thread at any time. Defaults: {@link MoverOptions#defaults()}.
 *
 * <p>Errors: {@link MoveRefusedException} (nothing changed), {@link
 * ChangeCaptureUnavailableException} (nothing changed), {@link MoveCancelledException} and {@link
 * MigrationException} (the record stays, for a resume), and the topology module's unchecked
 * exceptions when etcd cannot be reached.
 */
public final class Mover implements AutoCloseable {

  private final MigrationStore store;
  private final TopologyAdmin admin;
  private final MoverOptions options;
  private final MoveListener listener;
  private volatile MoveRun running;
  private volatile MoveProgress last =
      new MoveProgress("", MovePhase.NOT_STARTED, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  private Mover(EtcdTopologyOptions etcd, MoverOptions options, MoveListener listener) {
    this.options = Objects.requireNonNull(options, "options");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.store = MigrationStore.create(Objects.requireNonNull(etcd, "etcd"));
    TopologyAdmin created;
    try {
      created = TopologyAdmin.create(etcd);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    this.admin = created;
  }

  /** A mover for the cluster {@code etcd} names, with its own etcd clients (closed with it). */
  public static Mover create(EtcdTopologyOptions etcd, MoverOptions options) {
    return new Mover(etcd, options, new MoveListener() {});
  }

  /** The same, with a listener called between steps on the running thread. */
  public static Mover create(
      EtcdTopologyOptions etcd, MoverOptions options, MoveListener listener) {
    return new Mover(etcd, options, listener);
  }

  /**
   * Moves the plan's shards; if a record of the plan's migration id exists (a mover died), resumes
   * that migration instead, from its record.
   *
   * @return the summary; shards that could not be cut over are in {@link
   *     MoveResult#shardsNotMoved()}
   */
  public MoveResult move(MovePlan plan) {
    Objects.requireNonNull(plan, "plan");
    if (store.readRecord(plan.migrationId()).isPresent()) {
      return resume(plan.migrationId());
    }
    return run(() -> new MoveStart(store, admin, options).fresh(plan));
  }

  /**
   * Finishes the migration recorded under {@code migrationId}.
   *
   * @throws MoveRefusedException if there is no such record, or the lock is held
   */
  public MoveResult resume(String migrationId) {
    Objects.requireNonNull(migrationId, "migrationId");
    return run(() -> new MoveStart(store, admin, options).resume(migrationId));
  }

  /**
   * Undoes the migration recorded under {@code migrationId}: every shard still migrating or frozen
   * stays on its source (give-up transaction), its partial copy is removed from the target; shards
   * already cut over stay moved and their keys are removed from the source; the record is deleted.
   *
   * @return the shards that stay cut over
   * @throws MoveRefusedException if there is no such record, or the lock is held
   */
  public java.util.SortedSet<Integer> abort(String migrationId) {
    Objects.requireNonNull(migrationId, "migrationId");
    synchronized (this) {
      if (running != null) {
        throw new IllegalStateException("a run is in progress: cancel it first");
      }
    }
    return new MoveAbort(store, admin, options).abort(migrationId);
  }

  /** Whether a record of {@code migrationId} is in etcd: a migration to resume. Any thread. */
  public boolean hasRecord(String migrationId) {
    return store.readRecord(Objects.requireNonNull(migrationId, "migrationId")).isPresent();
  }

  /** The counters of the current (or last) run; any thread. */
  public MoveProgress progress() {
    MoveRun run = running;
    return run != null ? run.progress() : last;
  }

  /**
   * Stops the current run at its next step (never while shards are frozen): it throws {@link
   * MoveCancelledException}, its record stays. No effect when nothing runs. Any thread.
   */
  public void cancel() {
    MoveRun run = running;
    if (run != null) {
      run.cancel();
    }
  }

  /** Closes the etcd clients; call it after the run returned. */
  @Override
  public void close() {
    try {
      admin.close();
    } finally {
      store.close();
    }
  }

  private MoveResult run(java.util.function.Supplier<MoveStart.Started> start) {
    synchronized (this) {
      if (running != null) {
        throw new IllegalStateException("a run is in progress: one at a time per mover");
      }
      running = MoveRun.starting(store, options, listener);
    }
    MoveRun run = running;
    try {
      listener.phaseStarted(MovePhase.PREPARE);
      run.start(start.get());
      return run.run();
    } finally {
      last = run.progress();
      synchronized (this) {
        running = null;
      }
    }
  }
}
