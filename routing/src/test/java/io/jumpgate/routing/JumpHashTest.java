package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
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
