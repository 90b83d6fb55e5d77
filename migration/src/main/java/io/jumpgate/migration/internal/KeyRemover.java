package io.jumpgate.migration.internal;

import io.jumpgate.migration.MigrationException;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.AsyncCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Removes every key of some shards from one server without a copier: SCAN, filter by shard, UNLINK
 * in batches, throttled. What a mover uses where no copier watches the server: the sources of
 * shards a dead mover already cut over (a resumed run only cleans them up), and the targets'
 * partial copies of shards given up or aborted.
 *
 * <p>Not thread-safe; blocks the calling thread (never a Netty thread), each command bounded.
 */
public final class KeyRemover {

  private final Xxh64JumpRouter router;
  private final int scanCount;
  private final int batchSize;
  private final int keysPerSecond;
  private final Duration timeout;

  public KeyRemover(
      Xxh64JumpRouter router, int scanCount, int batchSize, int keysPerSecond, Duration timeout) {
    this.router = router;
    this.scanCount = scanCount;
    this.batchSize = batchSize;
    this.keysPerSecond = keysPerSecond;
    this.timeout = timeout;
  }

  /**
   * Removes the keys of {@code shards} on the server of {@code connection}; returns how many.
   *
   * @throws MigrationException if a command fails or times out
   */
  public long remove(
      StatefulRedisConnection<byte[], byte[]> connection, BitSet shards, String serverName) {
    ScanPages pages = new ScanPages(connection, scanCount, timeout, serverName);
    List<byte[]> batch = new ArrayList<>(batchSize);
    RatePacer pacer = new RatePacer(keysPerSecond, "removing keys on " + serverName);
    long removed = 0;
    List<byte[]> page;
    while ((page = pages.next()) != null) {
      for (byte[] key : page) {
        if (!shards.get(router.shardOf(key))) {
          continue;
        }
        batch.add(key);
        if (batch.size() >= batchSize) {
          removed += unlink(connection, batch, serverName);
          pacer.sent(batch.size());
          batch = new ArrayList<>(batchSize);
        }
      }
    }
    if (!batch.isEmpty()) {
      removed += unlink(connection, batch, serverName);
    }
    return removed;
  }

  private long unlink(
      StatefulRedisConnection<byte[], byte[]> connection, List<byte[]> keys, String serverName) {
    AsyncCommand<byte[], byte[], Long> unlink = Commands.unlink(keys);
    connection.dispatch(unlink);
    return Await.result(unlink, timeout, "UNLINK of " + keys.size() + " keys on " + serverName);
  }
}
