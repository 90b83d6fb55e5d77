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

  /**
   * {@link #bucket} for a bucket count the caller has already checked to be at least 1.
   *
   * <p>The same arithmetic as the contract's loop, rearranged so that the loop-carried chain is
   * shorter, without changing a single bit of the result:
   *
   * <ul>
   *   <li>{@code b + 1} is carried as a double: it is an integer of at most 2^31, exact in a
   *       double, so {@code (double) (b + 1)} and {@code floor(x) + 1.0} are the same value, and
   *       the product {@code (b + 1) * q} is the same single rounding as the contract's.
   *   <li>The contract tests {@code (long) x < buckets}; for {@code x >= 0} that is {@code x <
   *       buckets}, because {@code buckets} is an integer: the truncation is only done once, at the
   *       end ({@code floor} of a value below 2^31 is exact).
   *   <li>The divisor {@code (double) ((state >>> 33) + 1)}, an integer of at most 2^31, is built
   *       from its bits: the double with the exponent of 2^52 and v in its low mantissa bits is
   *       exactly 2^52 + v, and subtracting 2^52 leaves exactly v (no int-to-double conversion on
   *       the chain).
   * </ul>
   *
   * The division and the product are the contract's two roundings, in the contract's order. {@code
   * RoutingVectorsTest} and {@code JumpHashTest} check it against the vectors and against the
   * contract's loop written out.
   */
  static int bucketUnchecked(long key, int buckets) {
    double limit = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double next = TWO_POW_31 / divisor(state); // the first step: b = 0, so (b + 1) * q = q
    double bucketPlusOne = 1.0;
    while (next < limit) {
      bucketPlusOne = Math.floor(next) + 1.0;
      state = state * LCG_MULTIPLIER + 1;
      next = bucketPlusOne * (TWO_POW_31 / divisor(state));
    }
    return (int) bucketPlusOne - 1;
  }

  /** Exponent bits of 2^52: {@code longBitsToDouble(EXPONENT_2_POW_52 | v) == 2^52 + v}. */
  private static final long EXPONENT_2_POW_52 = 0x4330000000000000L;

  private static final double TWO_POW_52 = 4503599627370496.0;

  /** {@code (double) ((state >>> 33) + 1)}, exactly, from the bits of a double. */
  private static double divisor(long state) {
    return Double.longBitsToDouble(EXPONENT_2_POW_52 | ((state >>> 33) + 1)) - TWO_POW_52;
  }

  /** The contract's loop exactly as written there: the reference the fast form is checked with. */
  static int bucketAsWritten(long key, int buckets) {
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
