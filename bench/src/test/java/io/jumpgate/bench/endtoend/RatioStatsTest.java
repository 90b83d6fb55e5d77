package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RatioStatsTest {

  @Test
  void oddCountTakesTheMiddleValue() {
    RatioStats stats = RatioStats.of(List.of(1.2, 0.9, 1.5));

    assertThat(stats.min()).isEqualTo(0.9);
    assertThat(stats.median()).isEqualTo(1.2);
    assertThat(stats.max()).isEqualTo(1.5);
    assertThat(stats.rounds()).isEqualTo(3);
  }

  @Test
  void evenCountAveragesTheTwoMiddleValues() {
    RatioStats stats = RatioStats.of(List.of(4.0, 1.0, 3.0, 2.0));

    assertThat(stats.median()).isEqualTo(2.5);
    assertThat(stats.min()).isEqualTo(1.0);
    assertThat(stats.max()).isEqualTo(4.0);
  }

  @Test
  void singleValueIsMinMedianAndMax() {
    RatioStats stats = RatioStats.of(List.of(0.97));

    assertThat(List.of(stats.min(), stats.median(), stats.max())).containsOnly(0.97);
  }

  @Test
  void emptyOrNonFiniteInputIsRejectedWithAMessage() {
    assertThatThrownBy(() -> RatioStats.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no ratios");
    assertThatThrownBy(() -> RatioStats.of(List.of(1.0, Double.POSITIVE_INFINITY)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ratio 1");
  }
}
