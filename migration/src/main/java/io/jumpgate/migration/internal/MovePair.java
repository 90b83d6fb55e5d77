package io.jumpgate.migration.internal;

import io.jumpgate.migration.ChangeCaptureLostException;
import io.jumpgate.migration.CopyProgress;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.migration.ShardCopier;
import io.jumpgate.migration.ShardCopierOptions;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One (source, target) pair of a migration: the shards that go from one node to another, the copier
 * that moves them, and the copiers it replaced when change capture was lost (kept until the cleanup
 * for the shards they cut over, and closed newest first so that each restores the setting it
 * found).
 *
 * <p>Offline (see {@link io.jumpgate.migration.MoverOptions#offline()}) it has no {@link
 * ShardCopier} but one {@link OfflineCopier}: {@link #prepare()} only connects, {@link #copy()}
 * does nothing, {@link #copyFrozenGroup} copies a frozen group, and no write after cutover can be
 * seen (there is no change stream).
 *
 * <p>Not thread-safe, except {@link #progress()} and {@link #writesAfterCutover()}: used by the
 * mover's thread.
 */
public final class MovePair implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MovePair.class);

  private static final int MAX_RECOPIES = 3;

  /** A copier with the shards it marked cut over. */
  private record Copier(ShardCopier copier, BitSet cutOver) {}

  private final String sourceId;
  private final String targetId;
  private final ServerAddress source;
  private final ServerAddress target;
  private final int shardCount;
  private final BitSet shards;
  private final ShardCopierOptions options;
  private final BitSet cutOver = new BitSet();
  private final BitSet notMoved = new BitSet();
  private final List<Copier> copiers = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final OfflineCopier offlineCopier;
  private int recopies;
  private String originalNotifyKeyspaceEvents;

  public MovePair(
      String sourceId,
      String targetId,
      ServerAddress source,
      ServerAddress target,
      int shardCount,
      BitSet shards,
      ShardCopierOptions options,
      boolean offline) {
    this.sourceId = sourceId;
    this.targetId = targetId;
    this.source = source;
    this.target = target;
    this.shardCount = shardCount;
    this.shards = (BitSet) shards.clone();
    this.options = options;
    this.offlineCopier = offline ? new OfflineCopier(source, target, shardCount, options) : null;
  }

  /** Whether this pair moves offline: frozen for the whole copy of each group. */
  public boolean offline() {
    return offlineCopier != null;
  }

  public String sourceId() {
    return sourceId;
  }

  public String targetId() {
    return targetId;
  }

  public ServerAddress source() {
    return source;
  }

  public ServerAddress target() {
    return target;
  }

  /** Every shard of this pair in this run. */
  public BitSet shards() {
    return (BitSet) shards.clone();
  }

  /** Shards neither cut over nor given up for good. */
  public BitSet remaining() {
    BitSet remaining = shards();
    remaining.andNot(cutOver);
    remaining.andNot(notMoved);
    return remaining;
  }

  public BitSet notMoved() {
    return (BitSet) notMoved.clone();
  }

  /** The copier of the shards not cut over yet; online only. */
  public ShardCopier copier() {
    if (offlineCopier != null) {
      throw new IllegalStateException(this + " moves offline: it has no change-capture copier");
    }
    return copiers.get(copiers.size() - 1).copier();
  }

  /**
   * Makes every copier of this pair restore {@code original}, the source's {@code
   * notify-keyspace-events} before the migration (from its record), instead of what it finds. Call
   * it before {@link #prepare()}.
   */
  public void restoreNotifyKeyspaceEventsTo(String original) {
    this.originalNotifyKeyspaceEvents = original;
  }

  /** The source's {@code notify-keyspace-events} as the first copier found it; null before. */
  public String notifyKeyspaceEventsFound() {
    return copiers.isEmpty() ? null : copiers.get(0).copier().notifyKeyspaceEventsFound();
  }

  /** Starts a copier for every remaining shard and prepares it (change capture, leftovers). */
  public void prepare() {
    if (offlineCopier != null) {
      offlineCopier.open();
      return;
    }
    BitSet remaining = remaining();
    ShardCopier copier = ShardCopier.create(source, target, shardCount, remaining, options);
    if (originalNotifyKeyspaceEvents != null) {
      copier.restoreNotifyKeyspaceEventsTo(originalNotifyKeyspaceEvents);
    }
    copiers.add(new Copier(copier, new BitSet()));
    copier.prepare();
  }

  /** The copy and its catch-up; if change capture drops, the remaining shards start again. */
  public void copy() {
    if (offlineCopier != null) {
      return; // each group is copied while frozen
    }
    while (true) {
      try {
        copier().copy();
        return;
      } catch (ChangeCaptureLostException e) {
        LOG.warn("{}: {}; copying them again from scratch", this, e.getMessage());
        restart();
      }
    }
  }

  /** If change capture dropped, copies the remaining shards again from scratch. */
  public void recopyIfLost() {
    if (offlineCopier != null) {
      return;
    }
    if (copier().changeCaptureLost() && !remaining().isEmpty()) {
      LOG.warn(
          "{}: change capture was lost; copying shards {} again from scratch", this, remaining());
      restart();
      copy();
    }
  }

  private void restart() {
    if (++recopies > MAX_RECOPIES) {
      throw new io.jumpgate.migration.MigrationException(
          this + ": change capture was lost " + MAX_RECOPIES + " times; giving up the copy");
    }
    Copier last = copiers.get(copiers.size() - 1);
    if (last.cutOver().isEmpty()) {
      copiers.remove(last);
      closeQuietly(last.copier());
    }
    prepare();
  }

  /**
   * Offline: copies {@code group} to the target, leftovers of an earlier try removed first. Call it
   * only while the group is frozen and every client acknowledged.
   *
   * @throws io.jumpgate.migration.MigrationException if a command failed or timed out
   */
  public OfflineCopier.GroupCopy copyFrozenGroup(BitSet group) {
    if (offlineCopier == null) {
      throw new IllegalStateException(this + " moves online: its groups are drained, not copied");
    }
    return offlineCopier.copyGroup(group);
  }

  /** Records that {@code group} was cut over (after the cutover transaction). */
  public void markCutOver(BitSet group) {
    if (offlineCopier != null) {
      cutOver.or(group);
      return;
    }
    Copier current = copiers.get(copiers.size() - 1);
    current.copier().markCutOver(group);
    current.cutOver().or(group);
    cutOver.or(group);
  }

  /** Records that {@code group} stays on the source for good. */
  public void markNotMoved(BitSet group) {
    notMoved.or(group);
  }

  /** Removes the cut-over shards' keys from the source; returns how many keys were removed. */
  public long cleanup() {
    if (offlineCopier != null) {
      return cutOver.isEmpty() ? 0 : offlineCopier.cleanup(cutOver);
    }
    long removed = 0;
    for (Copier copier : copiers) {
      if (!copier.cutOver().isEmpty()) {
        removed += copier.copier().cleanup().keysDeleted();
      }
    }
    return removed;
  }

  /** The counters of every copier of this pair, added up; any thread. */
  public CopyProgress progress() {
    if (offlineCopier != null) {
      return offlineCopier.progress();
    }
    long[] sums = new long[8];
    boolean lost = false;
    for (Copier copier : copiers) {
      CopyProgress p = copier.copier().progress();
      sums[0] += p.keysScanned();
      sums[1] += p.keysCopied();
      sums[2] += p.bytesCopied();
      sums[3] += p.keysRecopied();
      sums[4] += p.keysDeleted();
      sums[5] += p.keysPending();
      sums[6] += p.keysCleanedUp();
      sums[7] += p.writesAfterCutover();
      lost |= p.changeCaptureLost();
    }
    return new CopyProgress(
        sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6], sums[7], lost);
  }

  /** Writes seen on the source after their shard's cutover, per shard; any thread. */
  public SortedMap<Integer, Long> writesAfterCutover() {
    SortedMap<Integer, Long> writes = new TreeMap<>();
    for (Copier copier : copiers) {
      for (Map.Entry<Integer, Long> entry : copier.copier().writesAfterCutover().entrySet()) {
        writes.merge(entry.getKey(), entry.getValue(), Long::sum);
      }
    }
    return writes;
  }

  /** Closes every copier, newest first; each restores the setting it found. */
  @Override
  public void close() {
    if (offlineCopier != null) {
      offlineCopier.close();
      return;
    }
    List<Copier> newestFirst = new ArrayList<>(copiers);
    java.util.Collections.reverse(newestFirst);
    RuntimeException failure = null;
    for (Copier copier : newestFirst) {
      try {
        copier.copier().close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeQuietly(ShardCopier copier) {
    try {
      copier.close();
    } catch (RuntimeException e) {
      LOG.warn("closing a copier failed: {}", e.getMessage());
    }
  }

  @Override
  public String toString() {
    return (offlineCopier != null ? "offline: " : "")
        + "shards "
        + shards
        + " from '"
        + sourceId
        + "' ("
        + source
        + ") to '"
        + targetId
        + "' ("
        + target
        + ")";
  }
}
