package io.jumpgate.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the CPU time of the whole benchmark JVM per operation ({@code
 * cpu.per.op}, nanoseconds): every thread of the fork (the benchmark thread, Netty's event loops,
 * timers, the garbage collector, the JIT), from {@code OperatingSystemMXBean#getProcessCpuTime}
 * before and after each iteration, divided by the iteration's operations. Where the servers are
 * other processes (a redis-server), this is the client's CPU per operation, which time per
 * operation is not (it includes waiting for the server, and other processes on a shared machine).
 * JIT and GC threads count too: read it after warm-up iterations.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar FanOutBenchmark -prof io.jumpgate.bench.ProcessCpuProfiler
 * </pre>
 *
 * <p>JMH makes one instance per fork and calls it from the benchmark's control thread.
 */
public final class ProcessCpuProfiler implements InternalProfiler {

  private final com.sun.management.OperatingSystemMXBean system =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  private long cpuAtStart;
  private long javaCpuAtStart;

  @Override
  public String getDescription() {
    return "CPU time per operation: the whole JVM, and its Java threads only";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    javaCpuAtStart = javaThreadsCpu();
    cpuAtStart = system.getProcessCpuTime();
  }

  /** CPU time of the live Java threads; a thread that ended since is not counted. */
  private long javaThreadsCpu() {
    long total = 0;
    for (long id : threads.getAllThreadIds()) {
      long cpu = threads.getThreadCpuTime(id);
      if (cpu > 0) {
        total += cpu;
      }
    }
    return total;
  }

  @Override
  public List<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = system.getProcessCpuTime() - cpuAtStart;
    long javaCpu = javaThreadsCpu() - javaCpuAtStart;
    long operations = result.getMetadata().getAllOps();
    if (cpuAtStart < 0 || operations <= 0) {
      return List.of();
    }
    return List.of(
        new ScalarResult("cpu.per.op", (double) cpu / operations, "ns/op", AggregationPolicy.AVG),
        new ScalarResult(
            "cpu.java.per.op", (double) javaCpu / operations, "ns/op", AggregationPolicy.AVG));
  }
}
