package io.jumpgate.bench.timing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of every thread of this process, the JVM's own (JIT compiler, GC) included, from {@code
 * /proc/self/task}: user and kernel milliseconds summed by thread name with its digits as N (the
 * kernel keeps the first 15 characters of a name). {@link ThreadCpu} sees Java threads only. A
 * thread that ended in between is missed. Immutable; thread-safe.
 */
final class TaskCpu {

  private static final long MILLIS_PER_TICK = 10; // USER_HZ is 100 on Linux

  private final Map<String, long[]> byGroup;

  private TaskCpu(Map<String, long[]> byGroup) {
    this.byGroup = byGroup;
  }

  /** Now; empty where /proc cannot be read. */
  static TaskCpu now() {
    Map<String, long[]> byGroup = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException ended) {
          continue; // the thread ended while we listed
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long[] sum = byGroup.computeIfAbsent(name.replaceAll("[0-9]+", "N"), key -> new long[2]);
        sum[0] += Long.parseLong(fields[11]) * MILLIS_PER_TICK;
        sum[1] += Long.parseLong(fields[12]) * MILLIS_PER_TICK;
      }
    } catch (IOException e) {
      return new TaskCpu(Map.of());
    } catch (UncheckedIOException e) {
      return new TaskCpu(Map.of());
    }
    return new TaskCpu(byGroup);
  }

  /**
   * Cores used per thread group from {@code start} to this reading over {@code seconds}, largest
   * first; groups under 0.01 cores are left out.
   */
  Map<String, Double> coresSince(TaskCpu start, double seconds) {
    Map<String, Double> cores = new TreeMap<>();
    for (Map.Entry<String, long[]> entry : byGroup.entrySet()) {
      long[] before = start.byGroup.getOrDefault(entry.getKey(), new long[2]);
      long millis = entry.getValue()[0] + entry.getValue()[1] - before[0] - before[1];
      double used = seconds > 0 ? millis / 1000.0 / seconds : 0;
      if (used >= 0.01) {
        cores.put(entry.getKey(), Math.round(used * 100) / 100.0);
      }
    }
    Map<String, Double> sorted = new LinkedHashMap<>();
    cores.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
    return sorted;
  }

  /** Lines {@code prefix NAME: user U ms, kernel K ms}, largest first. */
  List<String> lines(String prefix) {
    return byGroup.entrySet().stream()
        .sorted(
            (a, b) ->
                Long.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]))
        .map(
            entry ->
                prefix
                    + entry.getKey()
                    + ": user "
                    + entry.getValue()[0]
                    + " ms, kernel "
                    + entry.getValue()[1]
                    + " ms")
        .toList();
  }
}
