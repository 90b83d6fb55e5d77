package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundOrderTest {
  private static final List<String> SYSTEMS =
      List.of("jumpgate", "direct", "lettuceCluster", "twemproxy");

  @Test
  void roundOneKeepsTheOrderAndEachLaterRoundStartsOneSystemFurther() {
    assertThat(RoundOrder.of(SYSTEMS, 1))
        .containsExactly("jumpgate", "direct", "lettuceCluster", "twemproxy");
    assertThat(RoundOrder.of(SYSTEMS, 2))
        .containsExactly("direct", "lettuceCluster", "twemproxy", "jumpgate");
    assertThat(RoundOrder.of(SYSTEMS, 4))
        .containsExactly("twemproxy", "jumpgate", "direct", "lettuceCluster");
    // wraps around: round 5 is round 1 again
    assertThat(RoundOrder.of(SYSTEMS, 5)).isEqualTo(RoundOrder.of(SYSTEMS, 1));
  }

  @Test
  void overNRoundsEverySystemTakesEveryPositionOnce() {
    for (String system : SYSTEMS) {
      List<Integer> positions =
          List.of(1, 2, 3, 4).stream()
              .map(round -> RoundOrder.of(SYSTEMS, round).indexOf(system))
              .sorted()
              .toList();
      assertThat(positions).as(system).containsExactly(0, 1, 2, 3);
    }
  }

  @Test
  void allListsEveryRoundByNumber() {
    assertThat(RoundOrder.all(List.of("jumpgate", "direct"), 3))
        .containsExactly(
            java.util.Map.entry("1", List.of("jumpgate", "direct")),
            java.util.Map.entry("2", List.of("direct", "jumpgate")),
            java.util.Map.entry("3", List.of("jumpgate", "direct")));
  }

  @Test
  void roundsCountFromOne() {
    assertThatThrownBy(() -> RoundOrder.of(SYSTEMS, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rounds count from 1, was 0");
    assertThatThrownBy(() -> RoundOrder.of(List.of(), 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
