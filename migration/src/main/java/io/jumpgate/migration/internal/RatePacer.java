package io.jumpgate.migration.internal;

import io.jumpgate.migration.MigrationException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A bound on keys per second for one pass over a server (the copy's SCAN pass, the removal of moved
 * keys): it waits, on the caller's thread (never a Netty one), until the keys counted so far fit
 * the rate since the pass started. A rate of 0 never waits.
 *
 * <p>Not thread-safe: one pass, one thread.
 */
public final class RatePacer {

  /** Waits for a number of nanoseconds; the real one sleeps. */
  @FunctionalInterface
  interface Waiter {
    void await(long nanos) throws InterruptedException;
  }

  private final int keysPerSecond;
  private final String what;
  private final LongSupplier clock;
  private final Waiter waiter;
  private final long startNanos;
  private long keys;

  public RatePacer(int keysPerSecond, String what) {
    this(keysPerSecond, what, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
  }

  RatePacer(int keysPerSecond, String what, LongSupplier clock, Waiter waiter) {
    if (keysPerSecond < 0) {
      throw new IllegalArgumentException("keysPerSecond must be at least 0, was " + keysPerSecond);
    }
    this.keysPerSecond = keysPerSecond;
    this.what = what;
    this.clock = clock;
    this.waiter = waiter;
    this.startNanos = clock.getAsLong();
  }

  /**
   * Counts {@code count} more keys, after waiting until the keys counted before them fit the rate
   * (for a batch about to be sent).
   *
   * @throws MigrationException if the thread is interrupted while it waits
   */
  public void pace(int count) {
    awaitDue();
    keys += count;
  }

  /**
   * Counts {@code count} more keys, then waits until they fit the rate (for a batch just sent).
   *
   * @throws MigrationException if the thread is interrupted while it waits
   */
  public void sent(int count) {
    keys += count;
    awaitDue();
  }

  private void awaitDue() {
    if (keysPerSecond <= 0) {
      return;
    }
    long wait = startNanos + keys * 1_000_000_000L / keysPerSecond - clock.getAsLong();
    if (wait > 0) {
      try {
        waiter.await(wait); // a rate bound on the caller's thread, not a synchronisation
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MigrationException(what + ": interrupted after " + keys + " keys", e);
      }
    }
  }
}
