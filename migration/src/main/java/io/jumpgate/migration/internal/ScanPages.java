package io.jumpgate.migration.internal;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;

/**
 * One SCAN pass over a server, page by page, the next page asked for as soon as the previous one
 * arrives (so the server scans while the caller works on the keys).
 *
 * <p>Not thread-safe: one pass, read by one thread. Use a connection of its own, so that the SCANs
 * do not queue behind the batches.
 */
public final class ScanPages {

  private final StatefulRedisConnection<byte[], byte[]> connection;
  private final ScanArgs arguments;
  private final Duration timeout;
  private final String serverName;
  private RedisFuture<KeyScanCursor<byte[]>> next;

  public ScanPages(
      StatefulRedisConnection<byte[], byte[]> connection,
      int count,
      Duration timeout,
      String serverName) {
    this.connection = connection;
    this.arguments = ScanArgs.Builder.limit(count);
    this.timeout = timeout;
    this.serverName = serverName;
    this.next = connection.async().scan(ScanCursor.INITIAL, arguments);
  }

  /** The keys of the next page (possibly none), or null when the pass has ended. */
  public List<byte[]> next() {
    if (next == null) {
      return null;
    }
    KeyScanCursor<byte[]> page = Await.result(next, timeout, "SCAN on " + serverName);
    next = page.isFinished() ? null : connection.async().scan(page, arguments);
    return page.getKeys();
  }
}
