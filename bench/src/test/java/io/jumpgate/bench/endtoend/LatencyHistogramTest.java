package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

  @Test
  void bucketsAreContiguousAndWithinTwoPercent() {
    for (long value = 0; value < 5_000_000; value += 7) {
      int bucket = LatencyHistogram.bucketOf(value);
      assertThat(LatencyHistogram.lowestOf(bucket)).isLessThanOrEqualTo(value);
      assertThat(LatencyHistogram.lowestOf(bucket + 1)).isGreaterThan(value);
      long representative = LatencyHistogram.representativeOf(bucket);
      assertThat((double) Math.abs(representative - value)).isLessThanOrEqualTo(value / 50.0 + 1);
    }
  }

  @Test
  void largeValuesFitTheArray() {
    LatencyHistogram histogram = new LatencyHistogram();
    histogram.record(Long.MAX_VALUE / 4);
    histogram.record(60_000_000_000L);
    assertThat(histogram.count()).isEqualTo(2);
  }

  @Test
  void quantilesOfAKnownDistribution() {
    LatencyHistogram histogram = new LatencyHistogram();
    for (long micros = 1; micros <= 1000; micros++) {
      histogram.record(micros * 1000);
    }
    assertThat(histogram.count()).isEqualTo(1000);
    assertThat((double) histogram.valueAt(0.50)).isCloseTo(500_000, withinPercent(2));
    assertThat((double) histogram.valueAt(0.99)).isCloseTo(990_000, withinPercent(2));
    assertThat((double) histogram.valueAt(0.999)).isCloseTo(999_000, withinPercent(2));
    assertThat(new LatencyHistogram().valueAt(0.5)).isZero();
  }

  private static org.assertj.core.data.Percentage withinPercent(double percent) {
    return org.assertj.core.data.Percentage.withPercentage(percent);
  }
}
