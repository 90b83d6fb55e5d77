package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Properties of jump consistent hash that the routing contract relies on. */
class JumpHashTest {

  private static final int KEYS = 100_000;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 10, 100, 1023, 1024, 4096, 65535})
  void should_move_only_keys_into_the_new_bucket_when_growing_by_one(int buckets) {
    // Given 100k random keys placed in `buckets` buckets
    SplittableRandom random = new SplittableRandom(buckets);
    int moved = 0;
    for (int i = 0; i < KEYS; i++) {
      long key = random.nextLong();
      int before = JumpHash.bucket(key, buckets);
      // When one bucket is added
      int after = JumpHash.bucket(key, buckets + 1);
      // Then a key either stays or moves into the new bucket, never elsewhere
      if (after != before) {
        assertThat(after).as("key %s", Long.toUnsignedString(key)).isEqualTo(buckets);
        moved++;
      }
    }
    // And about 1/(buckets + 1) of them move: within 5 standard deviations of the binomial
    double p = 1.0 / (buckets + 1);
    double expected = KEYS * p;
    double deviation = Math.sqrt(KEYS * p * (1 - p));
    assertThat((double) moved).isBetween(expected - 5 * deviation, expected + 5 * deviation);
  }

  @Test
  void should_spread_a_million_keys_uniformly_over_1024_shards() {
    // Given 1M distinct keys routed by the full scheme
    int shards = 1024;
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shards);
    long[] counts = new long[shards];
    int keys = 1_000_000;
    byte[] key = new byte[16];
    for (int i = 0; i < keys; i++) {
      writeKey(key, i);
      counts[router.shardOf(key)]++;
    }
    // Then the chi-square statistic stays below the 99.9% quantile for 1023 degrees of freedom
    double expected = (double) keys / shards;
    double chiSquare = 0;
    for (long count : counts) {
      chiSquare += (count - expected) * (count - expected) / expected;
    }
    assertThat(chiSquare).isLessThan(chiSquareQuantile(shards - 1, 3.0902));
    // And no shard is empty
    assertThat(counts).doesNotContain(0L);
  }

  @Test
  void should_put_every_key_in_bucket_0_when_there_is_one_bucket() {
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      assertThat(JumpHash.bucket(random.nextLong(), 1)).isZero();
    }
  }

  @Test
  void should_stay_in_range_for_the_largest_bucket_count() {
    SplittableRandom random = new SplittableRandom(2);
    for (int i = 0; i < 10_000; i++) {
      assertThat(JumpHash.bucket(random.nextLong(), Integer.MAX_VALUE))
          .isBetween(0, Integer.MAX_VALUE - 1);
    }
    assertThat(JumpHash.bucket(-1L, Integer.MAX_VALUE)).isBetween(0, Integer.MAX_VALUE - 1);
  }

  @Test
  void should_give_exactly_what_the_contracts_loop_as_written_gives() {
    // Random keys into random, small, power-of-two-neighbour and the largest bucket counts.
    SplittableRandom random = new SplittableRandom(20141024);
    int[] special = {
      1, 2, 3, 1023, 1024, 1025, 65535, 65536, 65537, Integer.MAX_VALUE - 1, Integer.MAX_VALUE
    };
    long[] keys = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 2862933555777941757L};
    for (long key : keys) {
      for (int buckets : special) {
        assertThat(JumpHash.bucket(key, buckets)).isEqualTo(JumpHash.bucketAsWritten(key, buckets));
      }
    }
    for (int round = 0; round < 300_000; round++) {
      long key = random.nextLong();
      int buckets =
          switch (round % 3) {
            case 0 -> special[random.nextInt(special.length)];
            case 1 -> 1 + random.nextInt(Integer.MAX_VALUE);
            default -> 1 + random.nextInt(1 << (1 + random.nextInt(30)));
          };
      assertThat(JumpHash.bucket(key, buckets))
          .as("key %s into %d", Long.toUnsignedString(key), buckets)
          .isEqualTo(JumpHash.bucketAsWritten(key, buckets));
    }
  }

  /**
   * Ten million random keys into the bucket counts the routing meets and their edges, each against
   * the contract's loop written out. One run of that loop into {@code 2^31 - 1} buckets gives the
   * answer for every bucket count at once: the buckets it passes through do not depend on the
   * count, and the answer for n is the last of them below n (checked against {@link
   * JumpHash#bucketAsWritten} itself on the first keys).
   */
  @Test
  void should_give_exactly_what_the_contracts_loop_gives_on_ten_million_keys() {
    int chunks = 16;
    int keysPerChunk = 10_000_000 / chunks;
    long seed = 0x5eed_2014L;
    // the chunks run on the common pool (the machine's cores); each has its own random keys
    long checked =
        IntStream.range(0, chunks)
            .parallel()
            .mapToLong(chunk -> checkRandomKeys(new SplittableRandom(seed + chunk), keysPerChunk))
            .sum();
    assertThat(checked).isEqualTo(10_000_000L * 7);
  }

  private static long checkRandomKeys(SplittableRandom random, int keys) {
    int[] counts = {1, 2, 3, 1024, 1025, 65536, Integer.MAX_VALUE};
    int[] path = new int[64];
    long checked = 0;
    for (int round = 0; round < keys; round++) {
      long key = random.nextLong();
      int steps = bucketsPassedThrough(key, path);
      for (int buckets : counts) {
        int expected = lastBelow(path, steps, buckets);
        int actual = JumpHash.bucketUnchecked(key, buckets);
        if (actual != expected || round < 1_000) {
          assertThat(expected).isEqualTo(JumpHash.bucketAsWritten(key, buckets));
          assertThat(actual)
              .as("key %s into %d", Long.toUnsignedString(key), buckets)
              .isEqualTo(expected);
        }
        checked++;
      }
    }
    return checked;
  }

  /**
   * Keys whose second product lands exactly on an integer, or rounds to one, checked with bucket
   * counts just below, at and above it: where the exit test (and the early exit, which looks at a
   * rounded lower bound) could go one way or the other. The key is built backwards from the LCG
   * states: the second state is chosen (its divisor), the first is derived from it, and its divisor
   * must fall in a given range.
   */
  @Test
  void should_agree_with_the_contracts_loop_where_a_product_is_at_the_bucket_count() {
    SplittableRandom random = new SplittableRandom(42);
    int checked = 0;
    int exactIntegers = 0;
    for (int round = 0; round < 20_000; round++) {
      // second divisor: a power of two half the time (an exact quotient), any value otherwise
      long secondDivisor =
          round % 2 == 0 ? 1L << random.nextInt(32) : 1 + random.nextLong(1L << 31);
      long secondState = ((secondDivisor - 1) << 33) | random.nextLong(1L << 33);
      long firstState = (secondState - 1) * LCG_INVERSE;
      long key = (firstState - 1) * LCG_INVERSE;
      double quotient1 = JumpHash.TWO_POW_31 / (double) ((firstState >>> 33) + 1);
      double quotient2 = JumpHash.TWO_POW_31 / (double) secondDivisor;
      double product = (Math.floor(quotient1) + 1) * quotient2;
      if (product >= Integer.MAX_VALUE) {
        continue;
      }
      if (product == Math.rint(product)) {
        exactIntegers++;
      }
      long near = (long) product;
      for (long buckets = near - 2; buckets <= near + 2; buckets++) {
        if (buckets < 1 || buckets > Integer.MAX_VALUE) {
          continue;
        }
        assertThat(JumpHash.bucket(key, (int) buckets))
            .as("key %s into %d", Long.toUnsignedString(key), buckets)
            .isEqualTo(JumpHash.bucketAsWritten(key, (int) buckets));
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(50_000);
    assertThat(exactIntegers).isGreaterThan(1_000);
  }

  /** The multiplicative inverse of the LCG's multiplier mod 2^64 (Newton's iteration). */
  private static final long LCG_INVERSE = inverse(JumpHash.LCG_MULTIPLIER);

  private static long inverse(long odd) {
    long inverse = odd;
    for (int i = 0; i < 6; i++) {
      inverse *= 2 - odd * inverse;
    }
    return inverse;
  }

  @Test
  void should_build_keys_backwards_with_the_inverse_multiplier() {
    assertThat(JumpHash.LCG_MULTIPLIER * LCG_INVERSE).isEqualTo(1L);
  }

  /**
   * The contract's loop into {@code 2^31 - 1} buckets, exactly as written, recording every bucket
   * it passes through; returns how many.
   */
  private static int bucketsPassedThrough(long key, int[] path) {
    long state = key;
    long bucket = -1;
    long next = 0;
    int steps = 0;
    while (next < Integer.MAX_VALUE) {
      bucket = next;
      path[steps++] = (int) bucket;
      state = state * JumpHash.LCG_MULTIPLIER + 1;
      next = (long) ((bucket + 1) * (JumpHash.TWO_POW_31 / (double) ((state >>> 33) + 1)));
    }
    return steps;
  }

  private static int lastBelow(int[] path, int steps, int buckets) {
    int step = steps - 1;
    while (path[step] >= buckets) {
      step--;
    }
    return path[step];
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
  void should_reject_a_bucket_count_below_1(int buckets) {
    assertThatThrownBy(() -> JumpHash.bucket(42, buckets))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("buckets")
        .hasMessageContaining(Integer.toString(buckets));
  }

  /** "key:" followed by the number in decimal, zero padded to 16 bytes. */
  private static void writeKey(byte[] key, int number) {
    key[0] = 'k';
    key[1] = 'e';
    key[2] = 'y';
    key[3] = ':';
    int value = number;
    for (int i = key.length - 1; i >= 4; i--) {
      key[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
  }

  /** Wilson-Hilferty approximation of the chi-square quantile for the normal quantile z. */
  private static double chiSquareQuantile(int degrees, double z) {
    double a = 2.0 / (9.0 * degrees);
    double cube = 1 - a + z * Math.sqrt(a);
    return degrees * cube * cube * cube;
  }
}
