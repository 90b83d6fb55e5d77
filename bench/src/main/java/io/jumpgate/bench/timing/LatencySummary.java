package io.jumpgate.bench.timing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Percentiles of a set of durations in nanoseconds, reported in milliseconds.
 *
 * <p>Percentiles are nearest-rank: the p-th percentile of n sorted samples is the sample at rank
 * {@code ceil(p * n)} (1-based), so it is always a measured value. Immutable; thread-safe.
 *
 * @param samples how many durations
 * @param p50Millis the median
 * @param p99Millis the 99th percentile
 * @param maxMillis the largest
 * @param minMillis the smallest
 * @param meanMillis the arithmetic mean
 */
public record LatencySummary(
    int samples,
    double p50Millis,
    double p99Millis,
    double maxMillis,
    double minMillis,
    double meanMillis) {

  /**
   * Summarises durations given in nanoseconds.
   *
   * @throws IllegalArgumentException if there is no sample
   */
  public static LatencySummary ofNanos(long[] nanos) {
    if (nanos.length == 0) {
      throw new IllegalArgumentException("no sample to summarise");
    }
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (long value : sorted) {
      sum += value;
    }
    return new LatencySummary(
        sorted.length,
        millis(percentile(sorted, 0.50)),
        millis(percentile(sorted, 0.99)),
        millis(sorted[sorted.length - 1]),
        millis(sorted[0]),
        sum / sorted.length / 1e6);
  }

  /**
   * The nearest-rank percentile of sorted values.
   *
   * @param fraction in (0, 1]
   */
  static long percentile(long[] sorted, double fraction) {
    if (fraction <= 0 || fraction > 1) {
      throw new IllegalArgumentException("percentile fraction must be in (0, 1], was " + fraction);
    }
    int rank = (int) Math.ceil(fraction * sorted.length);
    return sorted[Math.max(rank, 1) - 1];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  /** The figures as JSON fields: samples, p50Ms, p99Ms, maxMs, minMs, meanMs. */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("samples", samples);
    json.put("p50Ms", p50Millis);
    json.put("p99Ms", p99Millis);
    json.put("maxMs", maxMillis);
    json.put("minMs", minMillis);
    json.put("meanMs", meanMillis);
    return json;
  }
}
