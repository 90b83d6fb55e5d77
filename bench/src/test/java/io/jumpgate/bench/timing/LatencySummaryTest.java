package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

  @Test
  void should_take_nearest_rank_percentiles_of_measured_values() {
    // 1..100 ms, shuffled: p50 is the 50th value, p99 the 99th
    long[] nanos =
        LongStream.rangeClosed(1, 100).map(ms -> ((ms * 37) % 100 + 1) * 1_000_000L).toArray();
    LatencySummary summary = LatencySummary.ofNanos(nanos);
    assertThat(summary.samples()).isEqualTo(100);
    assertThat(summary.p50Millis()).isEqualTo(50.0);
    assertThat(summary.p99Millis()).isEqualTo(99.0);
    assertThat(summary.maxMillis()).isEqualTo(100.0);
    assertThat(summary.minMillis()).isEqualTo(1.0);
    assertThat(summary.meanMillis()).isCloseTo(50.5, within(1e-9));
  }

  @Test
  void should_report_the_only_sample_for_every_percentile() {
    LatencySummary one = LatencySummary.ofNanos(new long[] {-2_500_000});
    assertThat(one.p50Millis()).isEqualTo(-2.5);
    assertThat(one.p99Millis()).isEqualTo(-2.5);
  }

  @Test
  void should_give_the_largest_of_small_sets_as_p99() {
    assertThat(LatencySummary.percentile(new long[] {1, 2, 3}, 0.99)).isEqualTo(3);
    assertThat(LatencySummary.percentile(new long[] {1, 2, 3}, 0.5)).isEqualTo(2);
    assertThat(LatencySummary.percentile(new long[] {1, 2, 3, 4}, 0.5)).isEqualTo(2);
  }

  @Test
  void should_refuse_an_empty_set_and_a_bad_fraction() {
    assertThatThrownBy(() -> LatencySummary.ofNanos(new long[0])).hasMessageContaining("no sample");
    assertThatThrownBy(() -> LatencySummary.percentile(new long[] {1}, 0))
        .hasMessageContaining("(0, 1]");
  }
}
