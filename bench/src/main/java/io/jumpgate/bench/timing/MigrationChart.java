package io.jumpgate.bench.timing;

import io.jumpgate.bench.timing.MigrationWorkload.Stage;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG of {@link MigrationRun}: the workload's completed commands per second over time, in
 * buckets of {@value #CHART_BUCKET_MILLIS} ms, one series (colour) per stage, so that the mover's
 * phases (prepare, copy, cutover, cleanup, from its listener) are marked by where the colour
 * changes; and, on the right axis, the keys the mover copied per second (from its progress).
 * Stateless.
 */
final class MigrationChart {

  static final long CHART_BUCKET_MILLIS = 200;

  private MigrationChart() {}

  static void write(Path file, MigrationWorkload workload, MoveProgressSampler progress, int keys)
      throws IOException {
    long[] counts = workload.timeline();
    int perChartBucket = (int) (CHART_BUCKET_MILLIS / MigrationWorkload.BUCKET_MILLIS);
    int chartBuckets = counts.length / perChartBucket;
    List<Stage> entered = workload.entered();
    XYChart chart =
        new XYChartBuilder()
            .width(1200)
            .height(560)
            .title(
                String.format(
                    Locale.ROOT,
                    "Workload through Jumpgate while a 4th node is added (%,d keys): ops/s per %d"
                        + " ms",
                    keys,
                    CHART_BUCKET_MILLIS))
            .xAxisTitle("seconds since the workload started")
            .yAxisTitle("ops/s")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(0);
    for (Stage stage : entered) {
      if (stage == Stage.STOPPED) {
        continue;
      }
      List<Double> seconds = new ArrayList<>();
      List<Double> rates = new ArrayList<>();
      for (int bucket = 0; bucket < chartBuckets; bucket++) {
        double startMillis = bucket * (double) CHART_BUCKET_MILLIS;
        if (MigrationRun.stageAt(workload, entered, startMillis) != stage) {
          continue;
        }
        long completed = 0;
        for (int part = 0; part < perChartBucket; part++) {
          completed += counts[bucket * perChartBucket + part];
        }
        seconds.add((startMillis + CHART_BUCKET_MILLIS / 2.0) / 1000);
        rates.add(completed * 1000.0 / CHART_BUCKET_MILLIS);
      }
      if (!seconds.isEmpty()) {
        XYSeries series =
            chart.addSeries(
                String.format(
                    Locale.ROOT,
                    "%s (%.1f s, %,.0f ops/s)",
                    stage.label(),
                    workload.stageSeconds(stage),
                    workload.opsPerSecond(stage)),
                seconds,
                rates);
        series.setMarker(SeriesMarkers.NONE);
      }
    }
    if (chart.getSeriesMap().isEmpty()) {
      return;
    }
    List<double[]> copyRates = progress.copyRates();
    if (!copyRates.isEmpty()) {
      XYSeries copied =
          chart.addSeries(
              "keys copied/s by the mover (right axis)",
              copyRates.stream().map(point -> point[0]).toList(),
              copyRates.stream().map(point -> point[1]).toList());
      copied.setMarker(SeriesMarkers.NONE);
      copied.setLineStyle(SeriesLines.DASH_DASH);
      copied.setLineColor(Color.GRAY);
      copied.setYAxisGroup(1);
      chart.setYAxisGroupTitle(1, "keys copied/s");
      chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
