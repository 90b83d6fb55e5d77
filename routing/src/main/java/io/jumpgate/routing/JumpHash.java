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
 * iterations (about 8 for 1024 buckets); {@link #bucketUnchecked} says how it evaluates them.
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
   * shorter and the loop's exit is known earlier, without changing a single bit of the result.
   * Write {@code b} for the current bucket, {@code u} for {@code (state >>> 33) + 1}, {@code q} for
   * the step's quotient {@code fl(2^31 / u)} and {@code n} for the bucket count; the contract's
   * step is {@code next = (long) fl((b + 1) * q)}, and the loop stops at the first {@code next >=
   * n}.
   *
   * <ul>
   *   <li>The divisor {@code (double) u}, an integer of at most 2^31, is built from its bits: the
   *       double with the exponent of 2^52 and u in its low mantissa bits is exactly 2^52 + u, and
   *       subtracting 2^52 leaves exactly u (no int-to-double conversion, whose false dependency on
   *       the register's previous value would chain the divisions). The quotient is the contract's
   *       first rounding.
   *   <li>{@code b + 1} is an integer of at most 2^31, exact in a double, so {@code (double) (b +
   *       1)} and {@code floor(x) + 1.0} are the same value, and the product {@code (b + 1.0) * q}
   *       is the contract's second rounding.
   *   <li>The product x is positive and finite, so {@code (long) x == floor(x)}, and for an integer
   *       n, {@code (long) x < n} if and only if {@code x < n}: the exit test looks at x itself,
   *       and {@code b} is {@code floor(x)} of the last product below n.
   *   <li>Early exit: rounding to nearest is monotone and {@code b + 1 > x}, so the next product
   *       {@code x' = fl((b + 1) q)} is at least {@code fl(x q)}; by induction, a lower bound of x
   *       ({@code y1}, {@code y2}: the previous products multiplied by the later quotients, rounded
   *       each time) gives a lower bound of x'. When the bound from two steps back is already at
   *       least n, the loop certainly stops at this step, and its test runs while the exact product
   *       is still being computed. The exact test follows it, for the steps where the bound is
   *       below n and x' is not.
   * </ul>
   *
   * {@code RoutingVectorsTest} and {@code JumpHashTest} check it against the 2000 vectors and
   * against the contract's loop written out ({@link #bucketAsWritten}), on random keys and on keys
   * built so that a product lands on, or rounds to, the bucket count.
   */
  static int bucketUnchecked(long key, int buckets) {
    double limit = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    // the first step: b = 0, so (b + 1) * q = q
    double product = TWO_POW_31 / divisor(state);
    if (!(product < limit)) {
      return 0;
    }
    // lower bounds of `product`, from one and two steps back
    double boundOneBack = product;
    double boundTwoBack = product;
    while (true) {
      state = state * LCG_MULTIPLIER + 1;
      double quotient = TWO_POW_31 / divisor(state);
      double bucket = Math.floor(product);
      double nextBoundOneBack = product * quotient;
      double nextBoundTwoBack = boundOneBack * quotient;
      if (!(boundTwoBack * quotient < limit)) {
        return (int) bucket;
      }
      product = (bucket + 1.0) * quotient;
      if (!(product < limit)) {
        return (int) bucket;
      }
      boundOneBack = nextBoundOneBack;
      boundTwoBack = nextBoundTwoBack;
    }
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
