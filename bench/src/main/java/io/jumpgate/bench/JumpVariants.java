package io.jumpgate.bench;

/**
 * Jump consistent hash written several ways, for {@link JumpBenchmark} and {@link
 * RoutingBenchmark}. Every variant returns, for every 64-bit key and every bucket count from 1 to
 * {@link Integer#MAX_VALUE}, exactly the bucket of the contract's canonical formula ({@link
 * #textbook}); {@code JumpVariantsTest} checks them against the 2000 routing vectors and random
 * keys. None of them checks {@code buckets}: callers pass at least 1.
 *
 * <p>Why they are exact. Write b for the current bucket, u for {@code (state >>> 33) + 1}, q for
 * the step's quotient {@code fl(2^31 / u)} and n for the bucket count; the canonical step is {@code
 * next = (long) fl((double) (b + 1) * q)} and the loop stops at the first {@code next >= n}.
 *
 * <ul>
 *   <li>{@link #divisor}: u is at most 2^31, so it can be made exactly from bits; the quotient is
 *       then the same double.
 *   <li>{@code b + 1 <= 2^31} while the loop runs, so {@code (double) (b + 1)} and {@code b + 1.0}
 *       are exact and the product is rounded once. {@code Math.fma(b, q, q)} rounds the exact value
 *       {@code b * q + q}, which is the same real number, once: the same double.
 *   <li>The product x is positive and finite, so {@code (long) x == Math.floor(x)} (both below
 *       2^63), and for an integer n, {@code floor(x) < n} if and only if {@code x < n}: the exit
 *       test can look at x itself.
 *   <li>Early exit ({@code Lag} variants): rounding to nearest is monotone and {@code b + 1 > x},
 *       so the next product {@code x' = fl((b + 1) q)} is at least {@code fl(x q)}, and by
 *       induction at least {@code fl(...fl(fl(x'' q') q)...)} for any earlier exact product x''.
 *       Such a lower bound needs only multiplications, no {@code floor}; when it is at least n, the
 *       loop certainly stops at this step. The exact test still follows it, for the rare steps
 *       where the bound is below n and x' is not.
 * </ul>
 *
 * <p>Why they are faster (measured on a Sapphire Rapids class Xeon under C2, JDK 17; see {@link
 * JumpBenchmark}):
 *
 * <ul>
 *   <li>C2 compiles {@code (double) long} to {@code cvtsi2sd}, which writes only the low half of
 *       its destination register and so depends on that register's previous value; in the textbook
 *       loop the register it picks for the divisor holds the previous quotient, which chains every
 *       division (about 14 cycles) to the one before it. {@link #divisor} builds the double with a
 *       {@code movq}, which has no such dependency, and the divisions run ahead.
 *   <li>The loop-carried chain is {@code floor -> fma} (or {@code floor -> add -> multiply})
 *       instead of {@code cvttsd2si -> add -> cvtsi2sd -> multiply}.
 *   <li>The loop's exit depends on the key: on real traffic it is mispredicted once per call, and
 *       the misprediction is only found when the exit test has its operands. The early exit tests
 *       of the {@code Lag} variants get them two (or three, four) steps sooner.
 * </ul>
 */
public final class JumpVariants {

  static final long LCG_MULTIPLIER = 2862933555777941757L;
  static final double TWO_POW_31 = 2147483648.0;

  /** Exponent bits of 2^52: {@code longBitsToDouble(EXP_2_POW_52 | v) == 2^52 + v} for v < 2^52. */
  static final long EXP_2_POW_52 = 0x4330000000000000L;

  static final double TWO_POW_52 = 4503599627370496.0;

  private JumpVariants() {}

  /**
   * {@code (double) ((state >>> 33) + 1)}, exactly, without {@code cvtsi2sd}: the value v is at
   * most 2^31, so the double with the exponent of 2^52 and v as its low mantissa bits is exactly
   * {@code 2^52 + v}, and subtracting 2^52 leaves exactly v.
   */
  static double divisor(long state) {
    return Double.longBitsToDouble(EXP_2_POW_52 | ((state >>> 33) + 1)) - TWO_POW_52;
  }

  /**
   * The routing contract's formula, verbatim (two roundings, division first): the baseline (b) of
   * the benchmarks and the reference of the tests ({@code JumpHash.bucketAsWritten} in routing).
   */
  public static int textbook(long key, int buckets) {
    long b = -1;
    long j = 0;
    while (j < buckets) {
      b = j;
      key = key * LCG_MULTIPLIER + 1;
      j = (long) ((b + 1) * (TWO_POW_31 / (double) ((key >>> 33) + 1)));
    }
    return (int) b;
  }

  /** {@link #textbook} with only the divisor changed ({@link #divisor}). */
  public static int textbookBits(long key, int buckets) {
    long b = -1;
    long j = 0;
    while (j < buckets) {
      b = j;
      key = key * LCG_MULTIPLIER + 1;
      j = (long) ((b + 1) * (TWO_POW_31 / divisor(key)));
    }
    return (int) b;
  }

  /**
   * The bucket carried as a double, one {@code fma} and one {@code floor} per step, the first step
   * peeled (b = 0, so x = q), but the divisor still from {@code cvtsi2sd}: no faster than the
   * textbook, because the divisions stay chained.
   */
  public static int fmaFloor(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / (double) ((state >>> 33) + 1);
    double b = 0.0;
    while (x < n) {
      b = Math.floor(x);
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / (double) ((state >>> 33) + 1);
      x = Math.fma(b, q, q);
    }
    return (int) b;
  }

  /** {@link #fmaFloor} with the divisor from {@link #divisor}. */
  public static int fmaFloorBits(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    double b = 0.0;
    while (x < n) {
      b = Math.floor(x);
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / divisor(state);
      x = Math.fma(b, q, q);
    }
    return (int) b;
  }

  /** {@link #fmaFloorBits} with an early exit test on {@code fl(x q)}, one step ahead. */
  public static int fmaFloorBitsLag1(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    if (!(x < n)) {
      return 0;
    }
    while (true) {
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / divisor(state);
      double b = Math.floor(x);
      if (!(x * q < n)) {
        return (int) b;
      }
      x = Math.fma(b, q, q);
      if (!(x < n)) {
        return (int) b;
      }
    }
  }

  /** {@link #fmaFloorBits} with an early exit test on a lower bound from two steps back. */
  public static int fmaFloorBitsLag2(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    if (!(x < n)) {
      return 0;
    }
    double y1 = x;
    while (true) {
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / divisor(state);
      double b = Math.floor(x);
      double next1 = x * q;
      if (!(y1 * q < n)) {
        return (int) b;
      }
      x = Math.fma(b, q, q);
      if (!(x < n)) {
        return (int) b;
      }
      y1 = next1;
    }
  }

  /**
   * {@link #fmaFloorBits} with an early exit test on a lower bound from three steps back: the
   * fastest measured with FMA. Needs a CPU with FMA (x86 since Haswell / Piledriver, every
   * AArch64): without it, {@code Math.fma} falls back to {@code BigDecimal}, slow and allocating.
   *
   * <p>Loop invariant: {@code x} is the exact product of the previous step and below n; {@code y1}
   * and {@code y2} are lower bounds of it (from one and two steps further back).
   */
  public static int fmaFloorBitsLag3(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    if (!(x < n)) {
      return 0;
    }
    double y1 = x;
    double y2 = x;
    while (true) {
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / divisor(state);
      double b = Math.floor(x);
      double next1 = x * q;
      double next2 = y1 * q;
      if (!(y2 * q < n)) {
        return (int) b;
      }
      x = Math.fma(b, q, q);
      if (!(x < n)) {
        return (int) b;
      }
      y1 = next1;
      y2 = next2;
    }
  }

  /** {@link #fmaFloorBitsLag3} with the lower bound from four steps back. */
  public static int fmaFloorBitsLag4(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    if (!(x < n)) {
      return 0;
    }
    double y1 = x;
    double y2 = x;
    double y3 = x;
    while (true) {
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / divisor(state);
      double b = Math.floor(x);
      double next1 = x * q;
      double next2 = y1 * q;
      double next3 = y2 * q;
      if (!(y3 * q < n)) {
        return (int) b;
      }
      x = Math.fma(b, q, q);
      if (!(x < n)) {
        return (int) b;
      }
      y1 = next1;
      y2 = next2;
      y3 = next3;
    }
  }

  /**
   * Without FMA: {@code b + 1} carried as a double, {@code floor(x) + 1.0} per step (exact: both
   * are integers below 2^31), the divisor from {@link #divisor}.
   */
  public static int doubleFloorBits(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    double bPlusOne = 1.0;
    while (x < n) {
      bPlusOne = Math.floor(x) + 1.0;
      state = state * LCG_MULTIPLIER + 1;
      x = bPlusOne * (TWO_POW_31 / divisor(state));
    }
    return (int) bPlusOne - 1;
  }

  /**
   * What {@code JumpHash.bucketUnchecked} ships (the same steps, named for reading there): portable
   * (no FMA; {@code Math.floor} is one {@code roundsd} with SSE4.1 and exact everywhere),
   * allocation-free, and within a few percent of {@link #fmaFloorBitsLag3}. {@link
   * #doubleFloorBits} with the early exit test of {@link #fmaFloorBitsLag3}; the step is {@code (b
   * + 1.0) * q}, the textbook's single rounding of the exact {@code (b + 1) q}.
   *
   * <p>Loop invariant: {@code x} is the exact product of the previous step and below n; {@code y1}
   * and {@code y2} are lower bounds of it (from one and two steps further back).
   */
  public static int doubleFloorBitsLag3(long key, int buckets) {
    double n = buckets;
    long state = key * LCG_MULTIPLIER + 1;
    double x = TWO_POW_31 / divisor(state);
    if (!(x < n)) {
      return 0;
    }
    double y1 = x;
    double y2 = x;
    while (true) {
      state = state * LCG_MULTIPLIER + 1;
      double q = TWO_POW_31 / divisor(state);
      double b = Math.floor(x);
      double next1 = x * q;
      double next2 = y1 * q;
      if (!(y2 * q < n)) {
        return (int) b;
      }
      x = (b + 1.0) * q;
      if (!(x < n)) {
        return (int) b;
      }
      y1 = next1;
      y2 = next2;
    }
  }
}
