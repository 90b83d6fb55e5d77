package io.jumpgate.it.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures how long this JVM's threads could not run: a daemon thread asks to sleep 5 ms again and
 * again, and every wake-up more than 20 ms late is recorded as a pause (a GC pause, or the process
 * starved of CPU on a loaded machine). A call that ends late because of such a pause says nothing
 * about the driver; {@link #pausedNanosWithin} lets the deadline check discount it. Thread-safe.
 */
final class PauseMonitor implements AutoCloseable {
  private static final long TICK_NANOS = 5_000_000;
  private static final long THRESHOLD_NANOS = 20_000_000;
  private static final int MAX_PAUSES = 200_000;

  private final List<long[]> pauses = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private long longest;

  PauseMonitor() {
    thread = new Thread(this::watch, "chaos-pause-monitor");
    thread.setDaemon(true);
    thread.start();
  }

  private void watch() {
    long last = System.nanoTime();
    while (running) {
      LockSupport.parkNanos(TICK_NANOS);
      long now = System.nanoTime();
      long late = now - last - TICK_NANOS;
      if (late > THRESHOLD_NANOS) {
        synchronized (pauses) {
          if (pauses.size() < MAX_PAUSES) {
            pauses.add(new long[] {last + TICK_NANOS, now});
          }
          longest = Math.max(longest, late);
        }
      }
      last = now;
    }
  }

  /** How long the JVM was paused between {@code fromNanos} and {@code toNanos}. */
  long pausedNanosWithin(long fromNanos, long toNanos) {
    long total = 0;
    synchronized (pauses) {
      for (int index = pauses.size() - 1; index >= 0; index--) {
        long[] pause = pauses.get(index);
        if (pause[1] <= fromNanos) {
          break;
        }
        total += Math.max(0, Math.min(pause[1], toNanos) - Math.max(pause[0], fromNanos));
      }
    }
    return total;
  }

  /** The longest pause seen. */
  long longestNanos() {
    synchronized (pauses) {
      return longest;
    }
  }

  /** Pauses longer than {@code nanos}. */
  long countLongerThan(long nanos) {
    synchronized (pauses) {
      return pauses.stream().filter(pause -> pause[1] - pause[0] > nanos).count();
    }
  }

  @Override
  public void close() {
    running = false;
  }
}
