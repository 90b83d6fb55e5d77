package io.jumpgate.cli.demo;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts latencies in buckets of about 12% width (exact below 16 µs, then 8 buckets per power of
 * two, up to about 2 minutes), so that percentiles of any interval come from the difference of two
 * {@link #snapshot()}s: precise enough for a progress line, without a dependency.
 *
 * <p>Thread-safe: {@link #record} is lock-free and may be called from any thread.
 */
final class LatencyHistogram {

  private static final int LINEAR = 16;
  private static final int SUB_BUCKETS = 8;
  private static final int MAX_EXPONENT = 26; // 2^27 µs, about 134 s

  /** The number of buckets. */
  static final int BUCKETS = LINEAR + (MAX_EXPONENT - 3) * SUB_BUCKETS;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

  /** Counts one latency. */
  void record(long nanos) {
    counts.incrementAndGet(bucketOf(Math.max(0, nanos / 1000)));
  }

  /** The counts so far, one per bucket. */
  long[] snapshot() {
    long[] copy = new long[BUCKETS];
    for (int index = 0; index < BUCKETS; index++) {
      copy[index] = counts.get(index);
    }
    return copy;
  }

  /** The bucket of a latency in microseconds. */
  static int bucketOf(long micros) {
    if (micros < LINEAR) {
      return (int) micros;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(micros); // at least 4
    if (exponent > MAX_EXPONENT) {
      return BUCKETS - 1;
    }
    int sub = (int) ((micros >>> (exponent - 3)) & (SUB_BUCKETS - 1));
    return LINEAR + (exponent - 4) * SUB_BUCKETS + sub;
  }

  /** The largest latency in microseconds that falls in {@code bucket}. */
  static long upperBoundMicros(int bucket) {
    if (bucket < LINEAR) {
      return bucket;
    }
    int exponent = 4 + (bucket - LINEAR) / SUB_BUCKETS;
    long sub = (bucket - LINEAR) % SUB_BUCKETS;
    long width = 1L << (exponent - 3);
    return (1L << exponent) + (sub + 1) * width - 1;
  }

  /** {@code after - before}, bucket by bucket: the counts of the interval between two snapshots. */
  static long[] minus(long[] after, long[] before) {
    long[] difference = new long[after.length];
    for (int index = 0; index < after.length; index++) {
      difference[index] = after[index] - before[index];
    }
    return difference;
  }

  /** The number of latencies counted. */
  static long total(long[] counts) {
    long total = 0;
    for (long count : counts) {
      total += count;
    }
    return total;
  }

  /**
   * The latency in microseconds below which {@code fraction} (0 to 1) of the counted ones fall (the
   * upper bound of its bucket), or -1 when nothing was counted.
   */
  static long percentileMicros(long[] counts, double fraction) {
    long total = total(counts);
    if (total == 0) {
      return -1;
    }
    long rank = Math.max(1, (long) Math.ceil(fraction * total));
    long seen = 0;
    for (int index = 0; index < counts.length; index++) {
      seen += counts[index];
      if (seen >= rank) {
        return upperBoundMicros(index);
      }
    }
    return upperBoundMicros(counts.length - 1);
  }
}
