package io.jumpgate.it.chaos;

import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.spi.JumpgateException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every call of a chaos run did, shared by the writer, reader and probe threads: operations,
 * failures by exception type, untyped failures, how late calls ended against their deadline, reads
 * that went back, and failures after the faults stopped. Thread-safe.
 */
final class ChaosStats {
  private static final int SAMPLES = 5;

  /** Upper bounds (ms) of the buckets of calls that ended after their deadline. */
  private static final long[] OVERRUN_BUCKETS_MS = {10, 50, 100, 250, 500, 1000};

  private final long commandTimeoutNanos;
  private final long marginNanos;

  private final Map<String, LongAdder> operations = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
  private final Map<String, String> firstFailure = new ConcurrentHashMap<>();
  private final LongAdder untyped = new LongAdder();
  private final LongAdder unknownOutcomes = new LongAdder();
  private final AtomicLong maxElapsedNanos = new AtomicLong();
  private final LongAdder overMargin = new LongAdder();
  private final LongAdder[] overruns = new LongAdder[OVERRUN_BUCKETS_MS.length + 1];
  private volatile String slowestCall = "none";
  private final LongAdder readsCompared = new LongAdder();
  private final LongAdder staleReads = new LongAdder();
  private final LongAdder staleAfterUnknownWrite = new LongAdder();
  private final LongAdder failuresAfterSettle = new LongAdder();
  private final List<String> samples = new ArrayList<>();
  private final List<LateCall> lateCalls = new ArrayList<>();

  /** A call that ended later than its deadline + the margin. */
  private record LateCall(String description, long startNanos, long endNanos) {}

  private volatile long settleFromNanos = Long.MAX_VALUE;

  ChaosStats(long commandTimeoutNanos, long marginNanos) {
    this.commandTimeoutNanos = commandTimeoutNanos;
    this.marginNanos = marginNanos;
    for (int bucket = 0; bucket < overruns.length; bucket++) {
      overruns[bucket] = new LongAdder();
    }
  }

  /** From now on, a call that starts at or after {@code nanos} must succeed. */
  void settleFrom(long nanos) {
    settleFromNanos = nanos;
  }

  long settleFromNanos() {
    return settleFromNanos;
  }

  /** A call that answered. */
  void succeeded(String command, long startNanos, long endNanos) {
    operations.computeIfAbsent(command, name -> new LongAdder()).increment();
    ended(command, "answered", startNanos, endNanos);
  }

  /**
   * A call that failed.
   *
   * @return whether the server may have run the command (unknown outcome)
   */
  boolean failed(String command, RuntimeException error, long startNanos, long endNanos) {
    operations.computeIfAbsent(command, name -> new LongAdder()).increment();
    String type = error.getClass().getSimpleName();
    failures.computeIfAbsent(type, name -> new LongAdder()).increment();
    firstFailure.putIfAbsent(type, command + ": " + error.getMessage());
    boolean unknown;
    if (error instanceof CommandFailedException failed) {
      unknown = failed.mayHaveRun();
    } else if (error instanceof JumpgateException) {
      unknown = false; // refused before anything was sent (no route, cross-shard, ...)
    } else {
      untyped.increment();
      unknown = true;
      sample("untyped failure of " + command + ": " + error);
    }
    if (unknown) {
      unknownOutcomes.increment();
    }
    if (startNanos >= settleFromNanos) {
      failuresAfterSettle.increment();
      sample(
          String.format(
              "%s started %d ms after the settle point failed: %s",
              command, (startNanos - settleFromNanos) / 1_000_000, error));
    }
    ended(command, "failed with " + type, startNanos, endNanos);
    return unknown;
  }

  private void ended(String command, String outcome, long startNanos, long endNanos) {
    long elapsed = endNanos - startNanos;
    if (elapsed > maxElapsedNanos.getAndAccumulate(elapsed, Math::max)) {
      slowestCall = command + " " + outcome + " after " + elapsed / 1_000_000 + " ms";
    }
    long overrun = elapsed - commandTimeoutNanos;
    if (overrun > 0) {
      int bucket = 0;
      while (bucket < OVERRUN_BUCKETS_MS.length
          && overrun > OVERRUN_BUCKETS_MS[bucket] * 1_000_000L) {
        bucket++;
      }
      overruns[bucket].increment();
    }
    if (elapsed > commandTimeoutNanos + marginNanos) {
      overMargin.increment();
      synchronized (lateCalls) {
        if (lateCalls.size() < 10_000) {
          lateCalls.add(new LateCall(command + " " + outcome, startNanos, endNanos));
        }
      }
    }
  }

  /** A read was compared with an earlier read of the same key in the same leader epoch. */
  void readCompared() {
    readsCompared.increment();
  }

  /** A read saw an older version than an earlier read in the same epoch. */
  void staleRead(String description, boolean afterUnknownWrite) {
    if (afterUnknownWrite) {
      staleAfterUnknownWrite.increment();
    } else {
      staleReads.increment();
      sample("stale read: " + description);
    }
  }

  private void sample(String text) {
    synchronized (samples) {
      if (samples.size() < SAMPLES * 4) {
        samples.add(text);
      }
    }
  }

  long operations() {
    return operations.values().stream().mapToLong(LongAdder::sum).sum();
  }

  Map<String, Long> operationsByCommand() {
    return snapshot(operations);
  }

  Map<String, Long> failuresByType() {
    return snapshot(failures);
  }

  Map<String, String> firstFailureByType() {
    return new TreeMap<>(firstFailure);
  }

  long untypedFailures() {
    return untyped.sum();
  }

  long unknownOutcomes() {
    return unknownOutcomes.sum();
  }

  long maxElapsedNanos() {
    return maxElapsedNanos.get();
  }

  long overMargin() {
    return overMargin.sum();
  }

  /**
   * Calls that ended later than their deadline + the margin even after the JVM's own pauses during
   * the call are taken off (see {@link PauseMonitor}); each is also added to the samples.
   */
  long overMarginNotExplainedByPauses(PauseMonitor monitor) {
    long count = 0;
    List<LateCall> late;
    synchronized (lateCalls) {
      late = List.copyOf(lateCalls);
    }
    for (LateCall call : late) {
      long paused = monitor.pausedNanosWithin(call.startNanos(), call.endNanos());
      long elapsed = call.endNanos() - call.startNanos();
      if (elapsed - paused > commandTimeoutNanos + marginNanos) {
        count++;
        sample(
            String.format(
                "%s after %d ms (the JVM was paused for %d ms of it; deadline %d ms + margin %d"
                    + " ms)",
                call.description(),
                elapsed / 1_000_000,
                paused / 1_000_000,
                commandTimeoutNanos / 1_000_000,
                marginNanos / 1_000_000));
      }
    }
    return count;
  }

  /** Calls that ended after their deadline, by how much: {@code "<=10": n, ..., ">1000": n}. */
  Map<String, Long> overrunHistogram() {
    Map<String, Long> histogram = new java.util.LinkedHashMap<>();
    for (int bucket = 0; bucket < overruns.length; bucket++) {
      String label =
          bucket < OVERRUN_BUCKETS_MS.length
              ? "<=" + OVERRUN_BUCKETS_MS[bucket]
              : ">" + OVERRUN_BUCKETS_MS[OVERRUN_BUCKETS_MS.length - 1];
      histogram.put(label, overruns[bucket].sum());
    }
    return histogram;
  }

  /** The call that took longest, roughly (the description may trail the maximum by a race). */
  String slowestCall() {
    return slowestCall;
  }

  long readsCompared() {
    return readsCompared.sum();
  }

  long staleReads() {
    return staleReads.sum();
  }

  long staleAfterUnknownWrite() {
    return staleAfterUnknownWrite.sum();
  }

  long failuresAfterSettle() {
    return failuresAfterSettle.sum();
  }

  List<String> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> counts) {
    Map<String, Long> result = new TreeMap<>();
    counts.forEach((key, value) -> result.put(key, value.sum()));
    return result;
  }
}
