package io.jumpgate.bench.endtoend;

import java.util.SplittableRandom;

/**
 * Draws ranks 0..n-1 with a Zipf distribution: rank r has probability proportional to {@code
 * 1/(r+1)^exponent}. The cumulative distribution is computed once (n doubles); a draw is a binary
 * search. Ranks are mapped to key indexes through a fixed random permutation so that the hot keys
 * are spread over the whole key space (and so over every node), not the first few keys.
 *
 * <p>Not thread-safe: the benchmark draws its sequences before the timed part, on one thread.
 */
final class ZipfGenerator {
  /** The exponent YCSB uses for its "zipfian" request distribution. */
  static final double DEFAULT_EXPONENT = 0.99;

  private final double[] cumulative;
  private final int[] rankToIndex;

  ZipfGenerator(int n, double exponent, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, was " + n);
    }
    if (!(exponent > 0)) {
      throw new IllegalArgumentException("exponent must be > 0, was " + exponent);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int rank = 0; rank < n; rank++) {
      sum += 1.0 / Math.pow(rank + 1, exponent);
      cumulative[rank] = sum;
    }
    for (int rank = 0; rank < n; rank++) {
      cumulative[rank] /= sum;
    }
    cumulative[n - 1] = 1.0;
    rankToIndex = new int[n];
    for (int index = 0; index < n; index++) {
      rankToIndex[index] = index;
    }
    SplittableRandom random = new SplittableRandom(seed);
    for (int index = n - 1; index > 0; index--) {
      int other = random.nextInt(index + 1);
      int swap = rankToIndex[index];
      rankToIndex[index] = rankToIndex[other];
      rankToIndex[other] = swap;
    }
  }

  /** The rank (0 = most frequent) for a uniform draw {@code u} in [0, 1). */
  int rank(double u) {
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (cumulative[middle] > u) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return low;
  }

  /** The key index that rank {@code rank} is mapped to. */
  int indexOfRank(int rank) {
    return rankToIndex[rank];
  }

  /** One key index, Zipf-distributed. */
  int next(SplittableRandom random) {
    return rankToIndex[rank(random.nextDouble())];
  }

  /** The probability of rank {@code rank}. */
  double probability(int rank) {
    return rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1];
  }
}
