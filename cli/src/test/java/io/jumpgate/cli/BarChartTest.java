package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BarChartTest {

  @Test
  void theLargestValueFillsTheWidth() {
    assertThat(new BarChart(10, true).bar(50, 50)).isEqualTo("█".repeat(10));
    assertThat(new BarChart(10, false).bar(50, 50)).isEqualTo("#".repeat(10));
  }

  @Test
  void blocksHaveEighthsOfResolution() {
    BarChart chart = new BarChart(2, true);

    assertThat(chart.bar(1, 16)).isEqualTo("▏");
    assertThat(chart.bar(4, 16)).isEqualTo("▌");
    assertThat(chart.bar(9, 16)).isEqualTo("█▏");
    assertThat(chart.bar(15, 16)).isEqualTo("█▉");
  }

  @Test
  void zeroIsNoBarAndAnyOtherValueAtLeastTheSmallestOne() {
    assertThat(new BarChart(30, true).bar(0, 100)).isEmpty();
    assertThat(new BarChart(30, true).bar(1, 1_000_000)).isEqualTo("▏");
    assertThat(new BarChart(30, false).bar(1, 1_000_000)).isEqualTo("#");
    assertThat(new BarChart(30, false).bar(5, 0)).isEmpty();
  }

  @Test
  void valuesAboveTheMaximumAreClamped() {
    assertThat(new BarChart(4, false).bar(10, 5)).isEqualTo("####");
  }

  @Test
  void theWidthMustBePositive() {
    assertThatThrownBy(() -> new BarChart(0, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("width must be at least 1, was 0");
  }
}
