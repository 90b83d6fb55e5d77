package io.jumpgate.bench.timing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the machine's CPU went, stage by stage: the CPU time of each process of a run (this JVM,
 * also split into user mode and kernel, each redis-server, etcd) read at every stage boundary,
 * turned into cores used per stage (CPU seconds over wall seconds) next to the machine's total. On
 * a 2-core machine a ratio of throughputs means little without it: it tells a stage that lost
 * throughput because the CPU was taken (the cores add up to about the machine's) from one that lost
 * it waiting (they do not).
 *
 * <p>Processes other than this JVM are read from {@code /proc/PID/stat} ({@code utime + stime}, in
 * clock ticks of {@value #TICKS_PER_SECOND} per second, Linux's {@code USER_HZ}); the machine's
 * total from {@code /proc/stat}. Where {@code /proc} is missing (not Linux) the figures are left
 * out. Thread-safe: {@link #mark} from any thread, {@link #json()} after the last mark.
 */
final class ProcessCpuLedger {

  /** Linux's {@code USER_HZ}: the unit of the CPU times in {@code /proc}. */
  static final int TICKS_PER_SECOND = 100;

  private record Mark(String stage, long wallNanos, Map<String, Long> cpuNanos, TaskCpu threads) {}

  private final Map<String, Long> pids;
  private final List<Mark> marks = new ArrayList<>();

  /**
   * @param pids the processes to follow, by name, besides this JVM (named {@code bench JVM})
   */
  ProcessCpuLedger(Map<String, Long> pids) {
    this.pids = new LinkedHashMap<>(pids);
  }

  /** Reads every process's CPU time now, as the start of {@code stage}. */
  synchronized void mark(String stage) {
    if (!marks.isEmpty() && marks.get(marks.size() - 1).stage().equals(stage)) {
      return; // entered again (the run, then the mover's listener): it goes on
    }
    Map<String, Long> cpu = new LinkedHashMap<>();
    cpu.put("bench JVM", jvmCpuNanos());
    long self = ProcessHandle.current().pid();
    cpu.put("bench JVM in user mode", processCpuNanos(self, 11));
    cpu.put("bench JVM in the kernel", processCpuNanos(self, 12));
    pids.forEach((name, pid) -> cpu.put(name, processCpuNanos(pid)));
    cpu.put("machine (all processes)", machineBusyNanos());
    marks.add(new Mark(stage, System.nanoTime(), cpu, TaskCpu.now()));
  }

  /**
   * Cores used by each process from each mark to the next, keyed by the stage the first one began,
   * with the bench JVM's split by thread group ({@link TaskCpu}, JIT and GC threads included):
   * {@code {stage: {seconds, cores: {process: cores}, benchJvmThreadCores: {group: cores}}}}.
   */
  synchronized Map<String, Object> json() {
    Map<String, Object> stages = new LinkedHashMap<>();
    for (int index = 0; index + 1 < marks.size(); index++) {
      Mark from = marks.get(index);
      Mark to = marks.get(index + 1);
      double seconds = (to.wallNanos() - from.wallNanos()) / 1e9;
      if (seconds <= 0) {
        continue;
      }
      Map<String, Object> cores = new LinkedHashMap<>();
      for (Map.Entry<String, Long> entry : from.cpuNanos().entrySet()) {
        Long end = to.cpuNanos().get(entry.getKey());
        if (entry.getValue() >= 0 && end != null && end >= 0) {
          cores.put(
              entry.getKey(), Math.round((end - entry.getValue()) / 1e9 / seconds * 100) / 100.0);
        }
      }
      Map<String, Object> stage = new LinkedHashMap<>();
      stage.put("seconds", seconds);
      stage.put("cores", cores);
      stage.put("benchJvmThreadCores", to.threads().coresSince(from.threads(), seconds));
      stages.putIfAbsent(from.stage(), stage);
    }
    return stages;
  }

  private static long jvmCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean system) {
      return system.getProcessCpuTime();
    }
    return -1;
  }

  /** {@code utime + stime} of a process, or -1 when it cannot be read. */
  static long processCpuNanos(long pid) {
    long user = processCpuNanos(pid, 11);
    long kernel = processCpuNanos(pid, 12);
    return user < 0 || kernel < 0 ? -1 : user + kernel;
  }

  /**
   * One CPU time field of a process's {@code stat}, counted from the field after the command name
   * ({@code 11}: utime, field 14 of proc(5); {@code 12}: stime, field 15), or -1.
   */
  private static long processCpuNanos(long pid, int field) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) may hold spaces; the fields after it start past its ')'.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[field]) * (1_000_000_000L / TICKS_PER_SECOND);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** CPU time all processors spent busy (not idle, not waiting for I/O), or -1. */
  static long machineBusyNanos() {
    try {
      String first =
          Files.readAllLines(Path.of("/proc/stat")).get(0); // cpu user nice system idle..
      String[] fields = first.trim().split("\\s+");
      long busy = 0;
      for (int index :
          new int[] {1, 2, 3, 6, 7}) { // user nice system irq softirq (guest is in user)
        busy += Long.parseLong(fields[index]);
      }
      return busy * (1_000_000_000L / TICKS_PER_SECOND);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
