package io.jumpgate.topology.internal;

import io.jumpgate.spi.TopologySourceStatus;
import java.time.Instant;
import java.util.Objects;

/**
 * The status of one topology source: written by the source (normally on its topology thread), read
 * from any thread with {@link #status()}, a volatile read.
 *
 * <p>Starts disconnected, at revision -1, never confirmed, without error.
 */
public final class SourceStatusTracker {

  private volatile TopologySourceStatus status = new TopologySourceStatus(false, -1, null, null);

  /** The status now; never blocks. */
  public TopologySourceStatus status() {
    return status;
  }

  /**
   * The source knows its snapshot at {@code revision} matches the store, as of {@code at}: in
   * contact, and the last error is cleared.
   */
  public synchronized void confirmed(long revision, Instant at) {
    status = new TopologySourceStatus(true, revision, Objects.requireNonNull(at, "at"), null);
  }

  /**
   * The store answered but what it holds could not be applied: still in contact, the snapshot and
   * its confirmation time stay as they were.
   */
  public synchronized void failedWhileConnected(String error) {
    TopologySourceStatus now = status;
    status = new TopologySourceStatus(true, now.revision(), now.confirmedAt(), error);
  }

  /** The store cannot be reached: the snapshot and its confirmation time stay as they were. */
  public synchronized void disconnected(String error) {
    TopologySourceStatus now = status;
    status = new TopologySourceStatus(false, now.revision(), now.confirmedAt(), error);
  }
}
