package io.jumpgate.cli.demo;

import io.jumpgate.migration.MoveProgress;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * The demo's live output: a progress line once a second and event lines in between. On a terminal
 * the progress line is rewritten in place ({@code \r}) and events scroll above it; otherwise (a
 * pipe, a file, a test) every progress line is a line of its own.
 *
 * <p>Thread-safe: the ticker and the main thread print through one instance.
 */
final class ProgressLine {

  /** How many error types the progress line names; the rest are counted as "other". */
  static final int ERROR_TYPES_SHOWN = 2;

  /**
   * The longest progress line rewritten in place: one that wraps cannot be rewritten with {@code
   * \r}, and the terminal's width is not known (80 columns is the safe guess).
   */
  static final int IN_PLACE_WIDTH = 79;

  /** A line is cut at a field boundary only when that loses at most this many columns. */
  private static final int FIELD_CUT_COLUMNS = 12;

  private final PrintWriter out;
  private final boolean inPlace;
  private String shown = "";

  /**
   * @param out where to print
   * @param inPlace rewrite the progress line in place (for a terminal)
   */
  ProgressLine(PrintWriter out, boolean inPlace) {
    this.out = out;
    this.inPlace = inPlace;
  }

  /** Shows a new progress line. */
  synchronized void update(String line) {
    if (inPlace) {
      String fitted = fitted(line);
      out.print("\r" + padded(fitted));
      shown = fitted;
    } else {
      out.println(line);
    }
    out.flush();
  }

  /**
   * {@code line} cut to {@link #IN_PLACE_WIDTH}: at the last field boundary (two spaces) when that
   * drops only the last few columns' fields (the latencies after a data move's progress), else with
   * {@code ...}.
   */
  static String fitted(String line) {
    if (line.length() <= IN_PLACE_WIDTH) {
      return line;
    }
    int boundary = line.lastIndexOf("  ", IN_PLACE_WIDTH);
    return boundary >= IN_PLACE_WIDTH - FIELD_CUT_COLUMNS
        ? line.substring(0, boundary)
        : line.substring(0, IN_PLACE_WIDTH - 3) + "...";
  }

  /** Prints a line that stays (an event), above the progress line. */
  synchronized void event(String line) {
    if (inPlace && !shown.isEmpty()) {
      out.print("\r" + padded(line) + System.lineSeparator() + shown);
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Ends the progress line: what follows starts on a line of its own. */
  synchronized void finish() {
    if (inPlace && !shown.isEmpty()) {
      out.println();
      shown = "";
    }
    out.flush();
  }

  /** {@code line} with spaces to cover the longer line shown before it. */
  private String padded(String line) {
    return line + " ".repeat(Math.max(0, shown.length() - line.length()));
  }

  /**
   * One progress line: {@code t= 7.0s 41,210 ops/s p50 0.84 ms p99 3.1 ms errors 3 (READONLY 2,
   * timeout 1) topology rev 12}.
   *
   * @param seconds since the workload started
   * @param opsPerSecond commands that ended per second, over the last interval
   * @param p50Micros median latency of the interval, -1 when none
   * @param p99Micros 99th percentile of the interval, -1 when none
   * @param errors failures by type since the start
   * @param revision the topology revision the driver routes with
   */
  static String format(
      double seconds,
      long opsPerSecond,
      long p50Micros,
      long p99Micros,
      SortedMap<String, Long> errors,
      long revision) {
    return format(seconds, opsPerSecond, p50Micros, p99Micros, errors, revision, "");
  }

  /**
   * The same with what a data move is doing ({@link #moving}) after the rate, so that it stays in
   * view when a terminal's line is cut ({@link #fitted}): {@code t= 12.0s 41,210 ops/s add-node:
   * cutover 96/256 shards, 2,417 keys, 3 freezes p50 ...}; nothing when {@code moving} is empty.
   */
  static String format(
      double seconds,
      long opsPerSecond,
      long p50Micros,
      long p99Micros,
      SortedMap<String, Long> errors,
      long revision,
      String moving) {
    return String.format(
        Locale.ROOT,
        "t=%5.1fs  %,7d ops/s  %sp50 %s  p99 %s  rev %d  %s",
        seconds,
        opsPerSecond,
        moving.isEmpty() ? "" : moving + "  ",
        latency(p50Micros),
        latency(p99Micros),
        revision,
        errors(errors));
  }

  /**
   * {@code add-node: cutover 96/256 shards, 2,417 keys, 3 freezes}: the phase of a data move, its
   * shards cut over of all, the keys copied (first copies) and the freezes so far. Short, so that a
   * progress line with it fits 80 columns.
   */
  static String moving(String what, MoveProgress progress) {
    String phase = progress.phase().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    if (progress.shardsTotal() == 0) {
      return what + ": " + phase; // preparing: nothing counted yet
    }
    return String.format(
        Locale.ROOT,
        "%s: %s %d/%d shards, %,d keys, %d %s",
        what,
        phase,
        progress.shardsCutOver(),
        progress.shardsTotal(),
        progress.keysCopied(),
        progress.groupsAttempted(),
        progress.groupsAttempted() == 1 ? "freeze" : "freezes");
  }

  /** {@code errors 0}, or {@code errors 5 (READONLY 3, timeout 1, other 1)}: the most frequent. */
  static String errors(SortedMap<String, Long> errors) {
    long total = errors.values().stream().mapToLong(Long::longValue).sum();
    if (total == 0) {
      return "errors 0";
    }
    List<Map.Entry<String, Long>> byCount = new ArrayList<>(errors.entrySet());
    byCount.removeIf(entry -> entry.getValue() == 0);
    byCount.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
    List<String> parts = new ArrayList<>();
    long named = 0;
    for (Map.Entry<String, Long> entry :
        byCount.subList(0, Math.min(ERROR_TYPES_SHOWN, byCount.size()))) {
      parts.add(entry.getKey() + " " + entry.getValue());
      named += entry.getValue();
    }
    if (named < total) {
      parts.add("other " + (total - named));
    }
    return String.format(Locale.ROOT, "errors %,d (%s)", total, String.join(", ", parts));
  }

  /** {@code 0.84 ms}, {@code 12.5 ms}, {@code 250 ms}, {@code 1.20 s}; {@code -} when unknown. */
  static String latency(long micros) {
    if (micros < 0) {
      return "-";
    }
    double millis = micros / 1000.0;
    if (millis < 10) {
      return String.format(Locale.ROOT, "%.2f ms", millis);
    }
    if (millis < 100) {
      return String.format(Locale.ROOT, "%.1f ms", millis);
    }
    if (millis < 1000) {
      return String.format(Locale.ROOT, "%.0f ms", millis);
    }
    return String.format(Locale.ROOT, "%.2f s", millis / 1000);
  }
}
