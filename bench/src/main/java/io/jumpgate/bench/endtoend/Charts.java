package io.jumpgate.bench.endtoend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG charts of a run (XChart, headless): keys/s and p99 latency per workload per system at 16
 * and 64 in flight, and one ratio chart per compared system (median bar, min and max markers over
 * the rounds). Returns the files written. Invalid cells ({@link Summary#invalid}) are not drawn;
 * the chart's title names them.
 */
final class Charts {
  private Charts() {}

  static List<Path> write(Summary summary, Path dir) throws IOException {
    List<Path> written = new ArrayList<>();
    for (Path file : candidates(summary, dir)) {
      if (file != null) {
        written.add(file);
      }
    }
    return written;
  }

  private static List<Path> candidates(Summary summary, Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    for (int inflight : new int[] {16, 64}) {
      files.add(
          perSystem(
              summary,
              dir.resolve("throughput-" + inflight + ".png"),
              inflight,
              "Keys per second at "
                  + inflight
                  + " in flight (requests/s x keys per request, median"
                  + " over rounds)",
              "keys/s",
              point -> point.result().throughput() * keysPerRequest(point.workload()),
              false));
      files.add(
          perSystem(
              summary,
              dir.resolve("latency-p99-" + inflight + ".png"),
              inflight,
              "p99 latency at " + inflight + " in flight (median over rounds)",
              "microseconds",
              point -> point.result().p99Micros(),
              false));
    }
    for (String other : summary.systems()) {
      if (!other.equals(Summary.JUMPGATE)) {
        files.add(ratios(summary, dir.resolve("ratio-" + other + ".png"), other));
      }
    }
    return files;
  }

  static int keysPerRequest(Workload workload) {
    return switch (workload) {
      case MGET10, MSET10 -> 10;
      case MGET100 -> 100;
      default -> 1;
    };
  }

  private static Path perSystem(
      Summary summary,
      Path file,
      int inflight,
      String title,
      String yTitle,
      ToDoubleFunction<Point> metric,
      boolean logarithmic)
      throws IOException {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(1100)
            .height(560)
            .title(title + invalidNote(summary, inflight, null))
            .xAxisTitle("workload")
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setYAxisLogarithmic(logarithmic);
    for (String system : summary.systems()) {
      List<String> labels = new ArrayList<>();
      List<Number> values = new ArrayList<>();
      for (Workload workload : Workload.values()) {
        String caseName = workload.label() + "@" + inflight;
        Optional<RatioStats> stats = summary.spread(caseName, system, metric);
        if (stats.isPresent() && stats.get().median() > 0) {
          labels.add(workload.label());
          values.add(stats.get().median());
        }
      }
      if (!labels.isEmpty()) {
        chart.addSeries(system, labels, values);
      }
    }
    return save(chart, file) ? file : null;
  }

  private static Path ratios(Summary summary, Path file, String other) throws IOException {
    String key = Summary.COMPARISONS.get(other);
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(1300)
            .height(560)
            .title(
                "Jumpgate throughput / "
                    + other
                    + " ("
                    + key
                    + "): median bar, min and max"
                    + invalidNote(summary, 0, other))
            .xAxisTitle("workload@inflight")
            .yAxisTitle("ratio")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setXAxisLabelRotation(45);
    List<String> labels = new ArrayList<>();
    List<Number> medians = new ArrayList<>();
    List<Number> minimums = new ArrayList<>();
    List<Number> maximums = new ArrayList<>();
    List<Number> parity = new ArrayList<>();
    for (String caseName : summary.cases()) {
      Optional<RatioStats> ratio = summary.ratio(caseName, other);
      if (ratio.isPresent()) {
        labels.add(caseName);
        medians.add(ratio.get().median());
        minimums.add(ratio.get().min());
        maximums.add(ratio.get().max());
        parity.add(1.0);
      }
    }
    if (!labels.isEmpty()) {
      chart.addSeries("median", labels, medians);
      CategorySeries min = chart.addSeries("min", labels, minimums);
      min.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
      min.setMarker(SeriesMarkers.TRIANGLE_UP);
      CategorySeries max = chart.addSeries("max", labels, maximums);
      max.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
      max.setMarker(SeriesMarkers.TRIANGLE_DOWN);
      CategorySeries one = chart.addSeries("1.0x", labels, parity);
      one.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
      one.setMarker(SeriesMarkers.NONE);
    }
    return save(chart, file) ? file : null;
  }

  /**
   * " - invalid, not drawn: get@16 direct, ..." for the invalid cells at {@code inflight} (0: all)
   * of every system, or of Jumpgate and {@code other} when given; "" when there are none.
   */
  static String invalidNote(Summary summary, int inflight, String other) {
    List<String> cells = new ArrayList<>();
    for (String cell : summary.invalidCells()) {
      String caseName = cell.substring(0, cell.indexOf(' '));
      String system = cell.substring(cell.indexOf(' ') + 1);
      boolean inCase = inflight == 0 || caseName.endsWith("@" + inflight);
      boolean ofSystem = other == null || system.equals(other) || system.equals(Summary.JUMPGATE);
      if (inCase && ofSystem) {
        cells.add(cell);
      }
    }
    return cells.isEmpty() ? "" : " - invalid (errors), not drawn: " + String.join(", ", cells);
  }

  /** Writes the chart; false (and nothing written) when it has no series. */
  private static boolean save(CategoryChart chart, Path file) throws IOException {
    if (chart.getSeriesMap().isEmpty()) {
      return false;
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return true;
  }
}
