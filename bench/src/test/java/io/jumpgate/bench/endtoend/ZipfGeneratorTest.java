package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfGeneratorTest {

  @Test
  void probabilitiesFollowThePowerLawAndSumToOne() {
    ZipfGenerator zipf = new ZipfGenerator(1000, 1.0, 7);
    double sum = 0;
    for (int rank = 0; rank < 1000; rank++) {
      sum += zipf.probability(rank);
    }
    assertThat(sum).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    // p(rank 0) / p(rank 9) = 10^1 for exponent 1
    assertThat(zipf.probability(0) / zipf.probability(9))
        .isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void drawnFrequenciesMatchTheDistribution() {
    int n = 1000;
    ZipfGenerator zipf = new ZipfGenerator(n, 0.99, 11);
    SplittableRandom random = new SplittableRandom(3);
    int[] countsByRank = new int[n];
    int draws = 400_000;
    for (int draw = 0; draw < draws; draw++) {
      countsByRank[zipf.rank(random.nextDouble())]++;
    }
    for (int rank : new int[] {0, 1, 10, 100}) {
      double expected = zipf.probability(rank) * draws;
      // 5 standard deviations of a binomial count
      double tolerance = 5 * Math.sqrt(expected);
      assertThat((double) countsByRank[rank])
          .as("draws of rank %d", rank)
          .isCloseTo(expected, org.assertj.core.data.Offset.offset(tolerance));
    }
    assertThat(countsByRank[0]).isGreaterThan(countsByRank[1]);
  }

  @Test
  void ranksMapToAPermutationOfAllIndexes() {
    int n = 5000;
    ZipfGenerator zipf = new ZipfGenerator(n, 0.99, 5);
    Set<Integer> indexes = new HashSet<>();
    for (int rank = 0; rank < n; rank++) {
      indexes.add(zipf.indexOfRank(rank));
    }
    assertThat(indexes).hasSize(n);
    assertThat(indexes).allMatch(index -> index >= 0 && index < n);
    // the hottest keys are spread, not the first indexes
    int[] hottest = new int[10];
    for (int rank = 0; rank < 10; rank++) {
      hottest[rank] = zipf.indexOfRank(rank);
    }
    assertThat(Arrays.stream(hottest).max().getAsInt()).isGreaterThan(10);
  }

  @Test
  void rankCoversTheEdges() {
    ZipfGenerator zipf = new ZipfGenerator(10, 0.99, 1);
    assertThat(zipf.rank(0.0)).isEqualTo(0);
    assertThat(zipf.rank(Math.nextDown(1.0))).isEqualTo(9);
  }

  @Test
  void badParametersAreRejected() {
    assertThatThrownBy(() -> new ZipfGenerator(0, 0.99, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n must be");
    assertThatThrownBy(() -> new ZipfGenerator(10, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exponent");
  }
}
