package io.jumpgate.bench.timing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU priority of {@link MigrationRun}'s mover JVM ({@code --mover-priority}), set by the
 * program that launches it (Linux {@code nice} and {@code chrt} set the priority, then exec the
 * JVM, whose threads inherit it). Only the mover: the servers and etcd of the run keep the normal
 * priority. Immutable.
 */
enum MoverPriority {
  /** As any process: no launcher. */
  NORMAL(List.of()),
  /**
   * {@code nice -n 19}: the lowest weight of the normal scheduler (about 1.5 % of a nice-0 task).
   */
  NICE(List.of("nice", "-n", "19")),
  /** {@code chrt --idle 0}: SCHED_IDLE, run only when no other task of the normal classes can. */
  IDLE(List.of("chrt", "--idle", "0"));

  private final List<String> launcher;

  MoverPriority(List<String> launcher) {
    this.launcher = launcher;
  }

  /** The command that runs the JVM at this priority (empty for {@link #NORMAL}). */
  List<String> launcher() {
    return launcher;
  }

  /** The flag's value: {@code normal}, {@code nice} or {@code idle}. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code normal}, {@code nice} or {@code idle}.
   *
   * @throws IllegalArgumentException for any other value
   */
  static MoverPriority parse(String value) {
    for (MoverPriority priority : values()) {
      if (priority.label().equals(value)) {
        return priority;
      }
    }
    throw new IllegalArgumentException(
        "MigrationRun: --mover-priority is normal, nice or idle, not '" + value + "'");
  }

  /**
   * The nice value and scheduling policy a process runs with, from {@code /proc/PID/stat} (fields
   * 19 and 41; policy 0 is SCHED_OTHER, 5 SCHED_IDLE): what the launcher actually set, for the
   * run's JSON. Empty when the file cannot be read.
   */
  static Map<String, Object> scheduling(long pid) {
    Map<String, Object> scheduling = new LinkedHashMap<>();
    try {
      String stat =
          Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
      // fields from the 3rd (state) on, after the command name in parentheses
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      scheduling.put("nice", Integer.parseInt(fields[19 - 3]));
      int policy = Integer.parseInt(fields[41 - 3]);
      scheduling.put(
          "policy", policy == 5 ? "SCHED_IDLE" : policy == 0 ? "SCHED_OTHER" : "policy " + policy);
    } catch (IOException | RuntimeException e) {
      scheduling.put("unreadable", e.toString());
    }
    return scheduling;
  }
}
