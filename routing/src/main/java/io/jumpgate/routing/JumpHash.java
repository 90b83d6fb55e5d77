package io.jumpgate.routing;

/**
 * Jump consistent hash (John Lamping and Eric Veach, "A Fast, Minimal Memory, Consistent Hash
 * Algorithm", 2014): maps a 64-bit key to one of {@code buckets} buckets so that growing from
 * {@code n} to {@code n + 1} buckets moves only the keys that land in the new bucket, about {@code
 * 1/(n + 1)} of them.
 *
 * <p>This is the canonical floating-point form that the routing contract fixes to the bit: each
 * step divides first ({@code 2^31 / ((state >>> 33) + 1)} in double precision) and multiplies by
 * {@code b + 1} second, then truncates. Other groupings of the same arithmetic (Guava's {@code
 * Hashing.consistentHash}, for one) round differently and pick a different bucket for rare keys, so
 * they must not be used where the contract applies.
 *
 * <p>Stateless and thread-safe; allocates nothing. It takes about {@code ln(buckets) + 1} loop
 * iterations (about 8 for 1024 buckets).
 */
public final class JumpHash {

  /** Multiplier of the 64-bit linear congruential generator that drives the jumps. */
  static final long LCG_MULTIPLIER = 2862933555777941757L;

  /** 2^31 as a double: the numerator of every jump step. */
  static final double TWO_POW_31 = 2147483648.0;

  private JumpHash() {}

  /**
   * The bucket of a key.
   *
   * @param key any 64-bit value, read as unsigned
   * @param buckets the number of buckets, at least 1
   * @return the bucket, in {@code [0, buckets)}
   * @throws IllegalArgumentException if {@code buckets} is less than 1
   */
  public static int bucket(long key, int buckets) {
    if (buckets < 1) {
      throw new IllegalArgumentException("buckets must be at least 1, was " + buckets);
    }
    return bucketUnchecked(key, buckets);
  }

  /** {@link #bucket} for a bucket count the caller has already checked to be at least 1. */
  static int bucketUnchecked(long key, int buckets) {
    long state = key;
    long bucket = -1;
    long next = 0;
    while (next < buckets) {
      bucket = next;
      state = state * LCG_MULTIPLIER + 1;
      next = (long) ((bucket + 1) * (TWO_POW_31 / (double) ((state >>> 33) + 1)));
    }
    return (int) bucket;
  }
}
