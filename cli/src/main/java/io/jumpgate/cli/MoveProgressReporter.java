package io.jumpgate.cli;

import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The live output of an admin verb whose data moves: a progress line (shards cut over of the total,
 * keys copied, keys/s, an ETA, the freezes and their p99), refreshed at most every {@link #REFRESH}
 * from a scheduler thread that reads the mover's {@link MoveProgress}, then a summary.
 *
 * <p>On a terminal the line is rewritten in place ({@code \r}); otherwise (a pipe, a file, a test)
 * a plain line is printed when the phase changes and at most every {@link #PLAIN_EVERY}. A group
 * given up is printed as a line of its own.
 *
 * <p>Thread-safe: the scheduler thread, the mover's thread (as {@link MoveListener}) and the verb's
 * thread print through one lock. {@link #start()} once, {@link #close()} once.
 */
final class MoveProgressReporter implements MoveListener, AutoCloseable {

  /** How often the line is refreshed at most. */
  static final Duration REFRESH = Duration.ofMillis(500);

  /** How often a plain line is printed at most, when the phase stays the same. */
  static final Duration PLAIN_EVERY = Duration.ofSeconds(5);

  /** The longest line rewritten in place (a line that wraps cannot be). */
  private static final int IN_PLACE_WIDTH = 79;

  private final PrintWriter out;
  private final boolean terminal;
  private final Supplier<MoveProgress> progress;
  private final long estimatedKeys;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private final List<Long> freezeMicros = new ArrayList<>();
  private ScheduledExecutorService scheduler;

  // Guarded by this.
  private String shown = "";
  private MovePhase lastPrintedPhase;
  private long lastPrintNanos;
  private long lastKeys;
  private long lastTickNanos;
  private long keysPerSecond;
  private long cutoverStartNanos;
  private int cutoverStartShards;
  private volatile boolean offline;

  /**
   * @param out where to print (the verb's stdout)
   * @param terminal rewrite the line in place
   * @param progress the mover's counters ({@code mover().progress()})
   * @param estimatedKeys the estimate of the keys that move, for the ETA of the copy; -1 unknown
   * @param nanoClock {@link System#nanoTime()}, or a test's clock
   */
  MoveProgressReporter(
      PrintWriter out,
      boolean terminal,
      Supplier<MoveProgress> progress,
      long estimatedKeys,
      LongSupplier nanoClock) {
    this.out = out;
    this.terminal = terminal;
    this.progress = progress;
    this.estimatedKeys = estimatedKeys;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
    this.lastTickNanos = startNanos;
  }

  /** Starts the scheduler thread (a daemon). */
  void start() {
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "jumpgate-move-progress");
              thread.setDaemon(true);
              return thread;
            });
    scheduler.scheduleAtFixedRate(
        this::tickSafely, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void tickSafely() {
    try {
      tick();
    } catch (RuntimeException e) {
      // A display error must not stop the move; the next tick tries again.
    }
  }

  /** Reads the counters and prints the line if it is due. */
  synchronized void tick() {
    MoveProgress now = progress.get();
    long nanos = nanoClock.getAsLong();
    long keys = now.keysCopied() + now.keysRecopied();
    long interval = nanos - lastTickNanos;
    if (interval > 0) {
      keysPerSecond = Math.max(0, (keys - lastKeys) * 1_000_000_000L / interval);
    }
    lastKeys = keys;
    lastTickNanos = nanos;
    if (now.phase() == MovePhase.CUTOVER && cutoverStartNanos == 0) {
      cutoverStartNanos = nanos;
      cutoverStartShards = now.shardsCutOver();
    }
    if (now.phase() == MovePhase.NOT_STARTED) {
      return;
    }
    String line = line(now, nanos);
    if (terminal) {
      String fitted =
          line.length() <= IN_PLACE_WIDTH ? line : line.substring(0, IN_PLACE_WIDTH - 3) + "...";
      out.print("\r" + fitted + " ".repeat(Math.max(0, shown.length() - fitted.length())));
      shown = fitted;
      out.flush();
    } else if (now.phase() != lastPrintedPhase || nanos - lastPrintNanos >= PLAIN_EVERY.toNanos()) {
      out.println(line);
      out.flush();
      lastPrintedPhase = now.phase();
      lastPrintNanos = nanos;
    }
  }

  /** Says, while preparing, that the move is offline (no change capture); call before start. */
  MoveProgressReporter offline(boolean offline) {
    this.offline = offline;
    return this;
  }

  /**
   * {@code copy shards 0/16 keys 12,345 41,000 keys/s ETA 3 s freezes 0}: the phase, then the
   * counters.
   */
  String line(MoveProgress now, long nanos) {
    if (now.shardsTotal() == 0 && now.phase() == MovePhase.PREPARE) {
      return offline
          ? "prepare  taking the lock (offline: nothing set on the sources)"
          : "prepare  taking the lock, switching on change capture on the sources";
    }
    List<Long> freezes = freezes();
    String freezeText =
        freezes.isEmpty()
            ? "freezes 0"
            : String.format(
                Locale.ROOT,
                "freezes %d p99 %s",
                freezes.size(),
                millis(percentile(freezes, 0.99)));
    return String.format(
        Locale.ROOT,
        "%-8s shards %d/%d  keys %,d  %,d keys/s  ETA %s  %s%s",
        now.phase().name().toLowerCase(Locale.ROOT).replace('_', ' '),
        now.shardsCutOver(),
        now.shardsTotal(),
        now.keysCopied() + now.keysRecopied(),
        keysPerSecond,
        eta(now, nanos),
        freezeText,
        now.writesAfterCutover() > 0 ? "  WRITES AFTER CUTOVER " + now.writesAfterCutover() : "");
  }

  private String eta(MoveProgress now, long nanos) {
    switch (now.phase()) {
      case COPY -> {
        if (estimatedKeys < 0 || keysPerSecond <= 0) {
          return "-";
        }
        long left = Math.max(0, estimatedKeys - now.keysCopied());
        return seconds(left * 1_000_000_000L / keysPerSecond);
      }
      case CUTOVER -> {
        int done = now.shardsCutOver() - cutoverStartShards;
        long spent = nanos - cutoverStartNanos;
        if (done <= 0 || spent <= 0) {
          return "-";
        }
        int left = now.shardsTotal() - now.shardsCutOver() - now.shardsNotMoved();
        return seconds(spent * Math.max(0, left) / done);
      }
      default -> {
        return "-";
      }
    }
  }

  @Override
  public void phaseStarted(MovePhase phase) {
    // The scheduler's next tick shows the phase.
  }

  @Override
  public void groupFinished(GroupOutcome outcome) {
    synchronized (this) {
      if (outcome.freezeDuration() != null && outcome.freezeRevision() > 0) {
        freezeMicros.add(outcome.freezeDuration().toNanos() / 1000);
      }
      if (!outcome.cutOver()) {
        event(
            "group of "
                + outcome.shards().size()
                + " shard(s) "
                + outcome.source()
                + " -> "
                + outcome.target()
                + " given up (attempt "
                + outcome.attempt()
                + "), nothing moved: "
                + String.join("; ", outcome.blockers()));
      }
    }
  }

  /** A line that stays, above the progress line. */
  private synchronized void event(String line) {
    if (terminal && !shown.isEmpty()) {
      out.print("\r" + line + " ".repeat(Math.max(0, shown.length() - line.length())));
      out.println();
      out.print(shown);
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Stops the scheduler; what follows starts on a line of its own. */
  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        scheduler.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      if (terminal && !shown.isEmpty()) {
        out.println();
        shown = "";
      }
      out.flush();
    }
  }

  private synchronized List<Long> freezes() {
    return new ArrayList<>(freezeMicros);
  }

  /**
   * The final summary of a change whose data moved: {@code moved 16 of 16 shard(s) with their data
   * in 8.2 s: 5,012 key(s) copied (412 KB), 2 freeze(s) p50 21 ms p99 30 ms max 30 ms, 0 write(s)
   * after cutover}, then a line per shard not moved and per shard written after its cutover.
   */
  static List<String> summary(MapChangeMover.Result result) {
    int total = 0;
    int moved = 0;
    long keys = 0;
    long bytes = 0;
    long elapsedMillis = 0;
    long writesAfter = 0;
    List<Long> freezes = new ArrayList<>();
    List<String> details = new ArrayList<>();
    for (MoveResult move : result.moves()) {
      total += move.progress().shardsTotal();
      moved += move.shardsCutOver().size();
      keys += move.progress().keysCopied() + move.progress().keysRecopied();
      bytes += move.progress().bytesCopied();
      elapsedMillis += move.elapsed().toMillis();
      writesAfter += move.writesAfterCutoverTotal();
      for (GroupOutcome group : move.groups()) {
        if (group.freezeDuration() != null && group.freezeRevision() > 0) {
          freezes.add(group.freezeDuration().toNanos() / 1000);
        }
      }
      for (Map.Entry<Integer, String> notMoved : move.shardsNotMoved().entrySet()) {
        details.add("  shard " + notMoved.getKey() + " not moved: " + notMoved.getValue());
      }
      for (Map.Entry<Integer, Long> writes : move.writesAfterCutover().entrySet()) {
        if (writes.getValue() > 0) {
          details.add(
              "  shard "
                  + writes.getKey()
                  + ": "
                  + writes.getValue()
                  + " write(s) reached its old leader after its cutover (lost)");
        }
      }
    }
    List<String> lines = new ArrayList<>();
    if (result.moves().isEmpty()) {
      lines.add("no shard's data had to move");
      return lines;
    }
    Collections.sort(freezes);
    String freezeText =
        freezes.isEmpty()
            ? "0 freezes"
            : String.format(
                Locale.ROOT,
                "%d freeze(s) p50 %s p99 %s max %s",
                freezes.size(),
                millis(percentile(freezes, 0.50)),
                millis(percentile(freezes, 0.99)),
                millis(freezes.get(freezes.size() - 1)));
    lines.add(
        String.format(
            Locale.ROOT,
            "moved %d of %d shard(s) with their data in %s: %,d key(s) copied (%s), %s, %d"
                + " write(s) after cutover",
            moved,
            total,
            seconds(elapsedMillis * 1_000_000L),
            keys,
            bytes(bytes),
            freezeText,
            writesAfter));
    lines.addAll(details);
    return lines;
  }

  /** Nearest-rank percentile of values; -1 when empty. */
  static long percentile(List<Long> values, double fraction) {
    if (values.isEmpty()) {
      return -1;
    }
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(fraction * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
  }

  /** {@code 4.2 ms}, {@code 25 ms}; {@code -} when negative. */
  static String millis(long micros) {
    if (micros < 0) {
      return "-";
    }
    double millis = micros / 1000.0;
    return millis < 10
        ? String.format(Locale.ROOT, "%.1f ms", millis)
        : String.format(Locale.ROOT, "%.0f ms", millis);
  }

  /** {@code 0.4 s}, {@code 12 s}, {@code 3 min 5 s}. */
  static String seconds(long nanos) {
    long millis = nanos / 1_000_000;
    if (millis < 10_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    if (millis < 60_000) {
      return (millis / 1000) + " s";
    }
    return (millis / 60_000) + " min " + (millis % 60_000 / 1000) + " s";
  }

  /** {@code 412 KB}: the copy's bytes, in units of 1024. */
  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return Math.round(bytes / 1024.0) + " KB";
    }
    return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
  }
}
