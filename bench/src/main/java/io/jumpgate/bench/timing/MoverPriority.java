package io.jumpgate.bench.timing;

import io.jumpgate.migration.MovePhase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
  IDLE(List.of("chrt", "--idle", "0")),
  /**
   * {@code idle-copy}: started normal, SCHED_IDLE for the copy phase only, back to SCHED_OTHER when
   * the cutover starts ({@code chrt --all-tasks -p} on the JVM's threads from {@link MigrationRun}
   * as the phases are printed; going back needs CAP_SYS_NICE or an RLIMIT_NICE of 20, which a mover
   * of the product does not have: an experiment, not a setting of the product).
   */
  IDLE_COPY(List.of());

  private final List<String> launcher;

  MoverPriority(List<String> launcher) {
    this.launcher = launcher;
  }

  /** The command that runs the JVM at this priority (empty for {@link #NORMAL}). */
  List<String> launcher() {
    return launcher;
  }

  /** The flag's value: {@code normal}, {@code nice}, {@code idle} or {@code idle-copy}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * What {@link #IDLE_COPY} does when the mover starts {@code phase}: every thread of {@code pid}
   * to SCHED_IDLE for the copy, back to SCHED_OTHER for the cutover; nothing for the others.
   *
   * @throws IllegalStateException if {@code chrt} fails or does not end within 10 s
   */
  void phaseStarted(MovePhase phase, long pid) {
    if (this != IDLE_COPY || (phase != MovePhase.COPY && phase != MovePhase.CUTOVER)) {
      return;
    }
    String policy = phase == MovePhase.COPY ? "--idle" : "--other";
    List<String> command = List.of("chrt", "--all-tasks", policy, "-p", "0", Long.toString(pid));
    try {
      Process chrt = new ProcessBuilder(command).redirectErrorStream(true).start();
      if (!chrt.waitFor(10, TimeUnit.SECONDS) || chrt.exitValue() != 0) {
        chrt.destroyForcibly();
        throw new IllegalStateException(
            command
                + " failed: "
                + new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new IllegalStateException(command + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(command + " interrupted", e);
    }
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
        "MigrationRun: --mover-priority is normal, nice, idle or idle-copy, not '" + value + "'");
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
