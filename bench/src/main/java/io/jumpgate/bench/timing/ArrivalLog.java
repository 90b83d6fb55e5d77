package io.jumpgate.bench.timing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * When one topology watcher saw each etcd revision: revision to {@link System#nanoTime()} at the
 * moment its listener was told of the snapshot of that revision.
 *
 * <p>Thread-safe: one thread records (the watcher's topology thread, or the reader of a child JVM's
 * stdout), any thread reads. A record wakes the thread waiting in {@link #awaitAll(List, long,
 * long)} (one at a time) only when it completes the set that thread waits for: with 50 watchers in
 * one JVM, waking the writer on each of their arrivals would cost 50 wake-ups per change on the
 * cores the watchers need.
 */
public final class ArrivalLog {

  private static final Object MONITOR = new Object();

  // What awaitAll waits for (written under MONITOR, read by the recording threads).
  private static volatile List<ArrivalLog> awaitedLogs = List.of();
  private static volatile long awaitedRevision = Long.MAX_VALUE;

  private static final long ABSENT = Long.MIN_VALUE;

  private final String jvm;
  private final String name;

  // arrivals[revision - base] is the nanoTime of that revision's snapshot, or ABSENT. A primitive
  // array, not a map of boxed values: 52 logs of 10,000 changes would otherwise add 5 KB of objects
  // per change to the young generation of the JVM whose GC pauses are in the measured tail.
  // Written by the one recording thread; base and the slots are published to readers by the
  // volatile write of lastRevision, which readers read first.
  private volatile long[] arrivals = new long[0];
  private long base = -1;
  private volatile long lastRevision = -1;

  /**
   * @param jvm which JVM the watcher runs in ("main", "probe-1", ...)
   * @param name the watcher's name, for messages
   */
  public ArrivalLog(String jvm, String name) {
    this.jvm = jvm;
    this.name = name;
  }

  public String jvm() {
    return jvm;
  }

  public String name() {
    return name;
  }

  /** Records that the snapshot of {@code revision} arrived at {@code nanos}. */
  public void arrived(long revision, long nanos) {
    if (lastRevision < 0) {
      base = revision;
    }
    if (revision <= lastRevision || revision < base) {
      return; // the first arrival of a revision counts; revisions are recorded in order
    }
    long[] current = arrivals;
    int index = Math.toIntExact(revision - base);
    if (index >= current.length) {
      long[] grown =
          Arrays.copyOf(current, Math.max(index + 1, Math.max(1024, current.length * 2)));
      Arrays.fill(grown, current.length, grown.length, ABSENT);
      grown[index] = nanos;
      arrivals = grown;
    } else {
      current[index] = nanos;
    }
    lastRevision = revision;
    long awaited = awaitedRevision;
    if (revision >= awaited && missing(awaitedLogs, awaited).isEmpty()) {
      // the waiter scans and waits under MONITOR: this cannot fall between its scan and its wait
      synchronized (MONITOR) {
        MONITOR.notifyAll();
      }
    }
  }

  private static List<ArrivalLog> missing(List<ArrivalLog> logs, long revision) {
    List<ArrivalLog> missing = new ArrayList<>();
    for (ArrivalLog log : logs) {
      if (log.lastRevision() < revision) {
        missing.add(log);
      }
    }
    return missing;
  }

  /** The newest revision seen, or -1. */
  public long lastRevision() {
    return lastRevision;
  }

  /**
   * When the watcher first had a snapshot at or after {@code revision} (a watcher that re-lists may
   * skip revisions: its next snapshot then covers this one), or -1 if it has none yet.
   */
  public long arrivalOf(long revision) {
    long last = lastRevision;
    if (last < 0 || revision > last) {
      return -1;
    }
    long[] seen = arrivals;
    for (long at = Math.max(revision, base); at <= last; at++) {
      long nanos = seen[(int) (at - base)];
      if (nanos != ABSENT) {
        return nanos;
      }
    }
    return -1;
  }

  /**
   * Waits until every log has seen {@code revision}, at most {@code timeoutNanos}.
   *
   * @return the logs that had not seen it when the time ran out (empty when all did)
   */
  public static List<ArrivalLog> awaitAll(List<ArrivalLog> logs, long revision, long timeoutNanos)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutNanos;
    synchronized (MONITOR) {
      awaitedLogs = List.copyOf(logs);
      awaitedRevision = revision;
      try {
        while (true) {
          List<ArrivalLog> missing = missing(logs, revision);
          long left = deadline - System.nanoTime();
          if (missing.isEmpty() || left <= 0) {
            return missing;
          }
          MONITOR.wait(Math.max(1, left / 1_000_000));
        }
      } finally {
        awaitedRevision = Long.MAX_VALUE;
        awaitedLogs = List.of();
      }
    }
  }

  @Override
  public String toString() {
    return jvm + "/" + name;
  }
}
