package io.jumpgate.bench.timing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of this JVM's threads, by thread group: a thread's name with its digits replaced by
 * {@code N} ({@code grpc-nio-worker-ELG-1-3} is {@code grpc-nio-worker-ELG-N-N}). A thread that
 * ended in between is missed. Immutable after {@link #now()}; thread-safe.
 */
final class ThreadCpu {

  private final Map<Long, Long> cpuNanos;
  private final Map<Long, String> names;

  private ThreadCpu(Map<Long, Long> cpuNanos, Map<Long, String> names) {
    this.cpuNanos = cpuNanos;
    this.names = names;
  }

  /** The CPU time of every live thread now (empty where the JVM cannot measure it). */
  static ThreadCpu now() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new HashMap<>();
    Map<Long, String> names = new HashMap<>();
    if (threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()) {
      for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
        if (info != null) {
          long nanos = threads.getThreadCpuTime(info.getThreadId());
          if (nanos >= 0) {
            cpu.put(info.getThreadId(), nanos);
            names.put(info.getThreadId(), info.getThreadName());
          }
        }
      }
    }
    return new ThreadCpu(cpu, names);
  }

  /** The name of a thread group: digits replaced by N. */
  static String group(String threadName) {
    return threadName.replaceAll("[0-9]+", "N");
  }

  /**
   * CPU milliseconds per thread group from {@code start} to this reading, divided by {@code
   * divisor}, largest first; groups under 1 % of the total are summed as {@code other}.
   */
  Map<String, Object> since(ThreadCpu start, double divisor) {
    Map<String, Long> byGroup = new TreeMap<>();
    long total = 0;
    for (Map.Entry<Long, Long> entry : cpuNanos.entrySet()) {
      long used = entry.getValue() - start.cpuNanos.getOrDefault(entry.getKey(), 0L);
      byGroup.merge(group(names.get(entry.getKey())), used, Long::sum);
      total += used;
    }
    Map<String, Object> json = new LinkedHashMap<>();
    long other = 0;
    for (Map.Entry<String, Long> entry :
        byGroup.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .toList()) {
      if (entry.getValue() * 100 < total) {
        other += entry.getValue();
      } else {
        json.put(entry.getKey(), entry.getValue() / 1e6 / divisor);
      }
    }
    json.put("other", other / 1e6 / divisor);
    json.put("total", total / 1e6 / divisor);
    return json;
  }
}
