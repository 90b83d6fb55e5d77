package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

  @Test
  void everyLatencyFallsInABucketWhoseBoundIsAtMostAnEighthAbove() {
    for (long micros = 0; micros < 200_000_000L; micros = micros * 5 / 4 + 1) {
      int bucket = LatencyHistogram.bucketOf(micros);
      long bound = LatencyHistogram.upperBoundMicros(bucket);
      if (micros < 134_000_000L) {
        assertThat(bound).as("bound of %d µs", micros).isBetween(micros, micros + micros / 8);
      }
      assertThat(bucket).isBetween(0, LatencyHistogram.BUCKETS - 1);
    }
  }

  @Test
  void bucketsFollowEachOther() {
    for (int bucket = 1; bucket < LatencyHistogram.BUCKETS - 1; bucket++) {
      long first = LatencyHistogram.upperBoundMicros(bucket - 1) + 1;
      assertThat(LatencyHistogram.bucketOf(first)).isEqualTo(bucket);
      assertThat(LatencyHistogram.bucketOf(LatencyHistogram.upperBoundMicros(bucket)))
          .isEqualTo(bucket);
    }
  }

  @Test
  void percentilesOfAnIntervalComeFromTwoSnapshots() {
    LatencyHistogram histogram = new LatencyHistogram();
    for (int i = 0; i < 1000; i++) {
      histogram.record(50_000_000L); // 50 ms, before the interval
    }
    long[] before = histogram.snapshot();
    for (int i = 0; i < 98; i++) {
      histogram.record(1_000_000L); // 1 ms
    }
    histogram.record(8_000_000L);
    histogram.record(9_000_000L);
    long[] interval = LatencyHistogram.minus(histogram.snapshot(), before);

    assertThat(LatencyHistogram.total(interval)).isEqualTo(100);
    assertThat(LatencyHistogram.percentileMicros(interval, 0.50)).isBetween(1_000L, 1_125L);
    assertThat(LatencyHistogram.percentileMicros(interval, 0.99)).isBetween(8_000L, 9_000L);
    assertThat(LatencyHistogram.percentileMicros(interval, 1.0)).isBetween(9_000L, 10_125L);
  }

  @Test
  void nothingCountedHasNoPercentile() {
    assertThat(LatencyHistogram.percentileMicros(new long[LatencyHistogram.BUCKETS], 0.99))
        .isEqualTo(-1);
  }
}
