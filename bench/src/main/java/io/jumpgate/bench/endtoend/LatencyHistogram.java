package io.jumpgate.bench.endtoend;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A log-linear latency histogram in nanoseconds: exact below 128 ns, then 64 buckets per power of
 * two (at most 1/64 = 1.6 % relative error). Recording is one atomic increment, safe from any
 * thread (the Netty threads that complete commands); reading is done after the measurement.
 */
public final class LatencyHistogram {
  private static final int SUB_BUCKETS = 64;
  private static final int EXACT = 2 * SUB_BUCKETS;
  private static final int BUCKETS = EXACT + SUB_BUCKETS * 58;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

  static int bucketOf(long nanos) {
    if (nanos < EXACT) {
      return (int) Math.max(0, nanos);
    }
    int exponent = 63 - Long.numberOfLeadingZeros(nanos);
    int shift = exponent - 6;
    int sub = (int) (nanos >>> shift); // in [64, 128)
    return shift * SUB_BUCKETS + sub;
  }

  /** The smallest value that falls into {@code bucket}. */
  static long lowestOf(int bucket) {
    if (bucket < EXACT) {
      return bucket;
    }
    int shift = bucket / SUB_BUCKETS - 1;
    int sub = bucket - shift * SUB_BUCKETS;
    return (long) sub << shift;
  }

  /** The middle of {@code bucket}'s range, the value reported for it. */
  static long representativeOf(int bucket) {
    long low = lowestOf(bucket);
    long high = bucket + 1 < BUCKETS ? lowestOf(bucket + 1) : low + 1;
    return low + (high - low - 1) / 2;
  }

  /** Records one duration. */
  public void record(long nanos) {
    counts.incrementAndGet(bucketOf(nanos));
  }

  /** How many durations were recorded. */
  public long count() {
    long total = 0;
    for (int bucket = 0; bucket < BUCKETS; bucket++) {
      total += counts.get(bucket);
    }
    return total;
  }

  /** The value at {@code quantile} (0..1) in nanoseconds, or 0 when nothing was recorded. */
  public long valueAt(double quantile) {
    long total = count();
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(quantile * total));
    long seen = 0;
    for (int bucket = 0; bucket < BUCKETS; bucket++) {
      seen += counts.get(bucket);
      if (seen >= rank) {
        return representativeOf(bucket);
      }
    }
    return representativeOf(BUCKETS - 1);
  }
}
