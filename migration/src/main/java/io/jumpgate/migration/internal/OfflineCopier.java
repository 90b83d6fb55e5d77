package io.jumpgate.migration.internal;

import io.jumpgate.migration.CopyMethod;
import io.jumpgate.migration.CopyProgress;
import io.jumpgate.migration.MigrationException;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.migration.ShardCopierOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copy engine of an offline move, for one (source, target) pair: no change capture, no {@code
 * CONFIG} command, so it works on a server that refuses {@code CONFIG SET}. The mover calls {@link
 * #copyGroup} while a group of shards is frozen and every client acknowledged the freeze, so that
 * no client write reaches those shards on the source: the keys {@code copyGroup} finds are their
 * last state. For each group it removes the group's keys left on the target by an earlier try, then
 * makes one SCAN pass over the whole source, keeps the keys of the group (routed as clients route
 * them) and copies them in pipelined batches ({@code MIGRATE ... COPY REPLACE} or DUMP/RESTORE, as
 * the copier options say), with their TTL.
 *
 * <p>The cost: each group's freeze lasts a SCAN pass over the whole source plus the copy of the
 * group's keys (and the removal pass on the target). A {@code copyKeysPerSecond} bound paces these
 * copies too, so it lengthens the freeze.
 *
 * <p>Not thread-safe: the mover's thread, blocking, each command bounded by the copier options.
 * {@link #progress()} and {@link #close()} from any thread.
 */
public final class OfflineCopier implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OfflineCopier.class);

  /** What the copy of one group did. */
  public record GroupCopy(long leftoversRemoved, long keysScanned, long keysCopied) {}

  private final ServerAddress source;
  private final ServerAddress target;
  private final Xxh64JumpRouter router;
  private final ShardCopierOptions options;
  private final AtomicLong keysScanned = new AtomicLong();
  private final AtomicLong keysCopied = new AtomicLong();
  private final AtomicLong bytesCopied = new AtomicLong();
  private final AtomicLong keysCleanedUp = new AtomicLong();
  private ServerConnections connections;
  private StatefulRedisConnection<byte[], byte[]> sourceConnection;
  private StatefulRedisConnection<byte[], byte[]> scanConnection;
  private StatefulRedisConnection<byte[], byte[]> targetConnection;
  private BatchCopier copier;
  private volatile boolean closed;

  public OfflineCopier(
      ServerAddress source, ServerAddress target, int shardCount, ShardCopierOptions options) {
    this.source = source;
    this.target = target;
    this.router = Xxh64JumpRouter.forShards(shardCount);
    this.options = options;
  }

  /**
   * Connects to both servers; no command that changes anything.
   *
   * @throws MigrationException if a server cannot be reached
   */
  public void open() {
    int queue = Math.max(10_000, options.batchSize() * (options.pipelineDepth() + 2) * 2);
    connections = new ServerConnections(options.connectTimeout(), options.commandTimeout(), queue);
    sourceConnection = connections.connect(source, "offline copy");
    scanConnection = connections.connect(source, "offline scan");
    targetConnection = connections.connect(target, "offline copy");
    copier =
        options.copyMethod() == CopyMethod.MIGRATE
            ? new MigrateBatchCopier(
                sourceConnection, targetConnection, target, options.migrateTimeout().toMillis())
            : options.copyMethod() == CopyMethod.SCRIPT
                ? new ScriptBatchCopier(sourceConnection, targetConnection)
                : new DumpRestoreBatchCopier(sourceConnection, targetConnection);
  }

  /**
   * Copies every key of {@code group} from the source to the target, after removing the group's
   * keys left on the target. Call it only while the group is frozen and acknowledged.
   *
   * @throws MigrationException if a command fails or times out; the target may hold part of the
   *     group (the next try, or the mover's cleanup of shards not moved, removes it)
   */
  public GroupCopy copyGroup(BitSet group) {
    requireOpen();
    long leftovers =
        new KeyRemover(
                router,
                options.scanCount(),
                options.cleanupBatchSize(),
                0,
                options.commandTimeout())
            .remove(targetConnection, group, "target " + target);
    if (leftovers > 0) {
      LOG.info(
          "removed {} keys of shards {} left on target {} by an earlier try",
          leftovers,
          group,
          target);
    }
    long inputBefore = options.copyMethod() == CopyMethod.MIGRATE ? targetInputBytes() : -1;
    PendingKeys claimed = new PendingKeys(router.shardCount());
    AtomicLong copiedHere = new AtomicLong();
    CopyWindow window =
        new CopyWindow(
            options.pipelineDepth(),
            options.commandTimeout(),
            claimed,
            finished -> {
              copiedHere.addAndGet(finished.outcome().keysWritten());
              bytesCopied.addAndGet(finished.outcome().bytes());
            });
    ScanPages pages =
        new ScanPages(
            scanConnection, options.scanCount(), options.commandTimeout(), "source " + source);
    BatchBuilder batches = new BatchBuilder(options.batchSize());
    RatePacer pacer = new RatePacer(options.copyKeysPerSecond(), "offline copy from " + source);
    long scanned = 0;
    List<byte[]> page;
    while ((page = pages.next()) != null) {
      scanned += page.size();
      keysScanned.addAndGet(page.size());
      for (byte[] key : page) {
        int shard = router.shardOf(key);
        if (!group.get(shard)) {
          continue;
        }
        RoutedKey routed = new RoutedKey(key, shard);
        if (!claimed.claim(routed)) {
          continue; // SCAN may return a key twice
        }
        List<RoutedKey> batch = batches.add(routed);
        if (batch != null) {
          pacer.pace(batch.size());
          window.add(batch, false, copier.copy(batch, false));
        }
      }
    }
    List<RoutedKey> rest = batches.flush();
    if (!rest.isEmpty()) {
      pacer.pace(rest.size());
      window.add(rest, false, copier.copy(rest, false));
    }
    window.awaitAll();
    keysCopied.addAndGet(copiedHere.get());
    if (inputBefore >= 0) {
      bytesCopied.addAndGet(Math.max(0, targetInputBytes() - inputBefore));
    }
    return new GroupCopy(leftovers, scanned, copiedHere.get());
  }

  /**
   * Removes the keys of {@code cutOver} from the source (SCAN, filter, UNLINK), throttled by {@code
   * cleanupKeysPerSecond}; returns how many.
   */
  public long cleanup(BitSet cutOver) {
    requireOpen();
    long removed =
        new KeyRemover(
                router,
                options.scanCount(),
                options.cleanupBatchSize(),
                options.cleanupKeysPerSecond(),
                options.commandTimeout())
            .remove(scanConnection, cutOver, "source " + source);
    keysCleanedUp.addAndGet(removed);
    return removed;
  }

  /** The counters now; nothing pending or lost offline. Any thread. */
  public CopyProgress progress() {
    return new CopyProgress(
        keysScanned.get(),
        keysCopied.get(),
        bytesCopied.get(),
        0,
        0,
        0,
        keysCleanedUp.get(),
        0,
        false);
  }

  /** Closes the connections; idempotent, any thread. */
  @Override
  public void close() {
    closed = true;
    if (connections != null) {
      connections.close();
    }
  }

  private void requireOpen() {
    if (closed || copier == null) {
      throw new IllegalStateException(closed ? "this copier is closed" : "call open() first");
    }
  }

  private long targetInputBytes() {
    String info =
        Await.result(
            targetConnection.async().info("stats"),
            options.commandTimeout(),
            "INFO stats on target " + target);
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("total_net_input_bytes:")) {
        return Long.parseLong(line.substring("total_net_input_bytes:".length()).trim());
      }
    }
    return 0;
  }

  @Override
  public String toString() {
    return "offline copier from " + source + " to " + target;
  }
}
