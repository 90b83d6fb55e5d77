package io.jumpgate.bench.endtoend;

import java.util.Arrays;
import java.util.List;

/** The minimum, median and maximum of a set of ratios (one per round). Immutable. */
record RatioStats(double min, double median, double max, int rounds) {

  /**
   * @throws IllegalArgumentException when {@code ratios} is empty or holds a value that is not a
   *     finite number
   */
  static RatioStats of(List<Double> ratios) {
    if (ratios.isEmpty()) {
      throw new IllegalArgumentException("no ratios to summarise");
    }
    double[] sorted = new double[ratios.size()];
    for (int index = 0; index < sorted.length; index++) {
      double ratio = ratios.get(index);
      if (!Double.isFinite(ratio)) {
        throw new IllegalArgumentException("ratio " + index + " is not a finite number: " + ratio);
      }
      sorted[index] = ratio;
    }
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    double median =
        sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    return new RatioStats(sorted[0], median, sorted[sorted.length - 1], sorted.length);
  }
}
