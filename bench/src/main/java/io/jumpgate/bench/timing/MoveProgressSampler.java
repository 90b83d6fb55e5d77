package io.jumpgate.bench.timing;

import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.Mover;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads {@link Mover#progress()} from its own thread every {@value #PERIOD_MILLIS} ms while a move
 * runs, for the copy's course over time (the CSV and the chart of {@link MigrationRun}); or, for a
 * mover in a JVM of its own, takes the readings it prints ({@link #record}). Thread-safe: samples
 * are taken on the sampler's thread (or the caller's of {@link #record}) and read after {@link
 * #stop}.
 */
final class MoveProgressSampler {

  static final long PERIOD_MILLIS = 100;

  /** One reading, at {@code millis} since {@code origin}. */
  record Sample(double millis, MoveProgress progress) {}

  private final Mover mover;
  private final long origin;
  private final List<Sample> samples = new ArrayList<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "migration-progress-sampler");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * @param origin {@link System#nanoTime()} that sample times are counted from
   */
  MoveProgressSampler(Mover mover, long origin) {
    this.mover = mover;
    this.origin = origin;
  }

  /** A sampler of readings given to {@link #record}, from a mover in another JVM. */
  MoveProgressSampler(long origin) {
    this(null, origin);
  }

  void start() {
    if (mover != null) {
      timer.scheduleAtFixedRate(this::sample, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  private void sample() {
    record(mover.progress());
  }

  /** Adds a reading taken now. */
  void record(MoveProgress progress) {
    double millis = (System.nanoTime() - origin) / 1e6;
    synchronized (samples) {
      samples.add(new Sample(millis, progress));
    }
  }

  /** Stops sampling, waiting for a sample being taken, and takes a last one. */
  void stop() throws InterruptedException {
    timer.shutdown();
    if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the progress sampler did not stop within 10 s");
    }
    if (mover != null) {
      sample();
    }
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /**
   * Writes {@code seconds,phase,keysCopied,keysRecopied,keysPending,keysCleanedUp,shardsCutOver}
   * per sample.
   */
  void writeCsv(Path file) throws IOException {
    StringBuilder csv =
        new StringBuilder(
            "seconds,phase,keysCopied,keysRecopied,keysPending,keysCleanedUp,shardsCutOver\n");
    for (Sample sample : samples()) {
      MoveProgress progress = sample.progress();
      csv.append(String.format(Locale.ROOT, "%.3f", sample.millis() / 1000))
          .append(',')
          .append(progress.phase().name().toLowerCase(Locale.ROOT))
          .append(',')
          .append(progress.keysCopied())
          .append(',')
          .append(progress.keysRecopied())
          .append(',')
          .append(progress.keysPending())
          .append(',')
          .append(progress.keysCleanedUp())
          .append(',')
          .append(progress.shardsCutOver())
          .append('\n');
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, csv, StandardCharsets.UTF_8);
  }

  /**
   * Keys copied (first copies and copies again) per second between consecutive samples, as {x
   * seconds at the middle of the interval, y keys/s}.
   */
  List<double[]> copyRates() {
    List<Sample> all = samples();
    List<double[]> rates = new ArrayList<>();
    for (int index = 1; index < all.size(); index++) {
      Sample previous = all.get(index - 1);
      Sample current = all.get(index);
      double seconds = (current.millis() - previous.millis()) / 1000;
      if (seconds <= 0) {
        continue;
      }
      long keys =
          current.progress().keysCopied()
              + current.progress().keysRecopied()
              - previous.progress().keysCopied()
              - previous.progress().keysRecopied();
      rates.add(new double[] {(previous.millis() + current.millis()) / 2000, keys / seconds});
    }
    return rates;
  }
}
