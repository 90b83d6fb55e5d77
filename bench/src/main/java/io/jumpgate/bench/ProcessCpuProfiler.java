package io.jumpgate.bench;

import java.lang.management.ManagementFactory;
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
 * operation is not (it includes waiting for the server). GC and JIT bursts make it noisy on a busy
 * machine: compare benchmarks run in the same sitting. (A sum over live Java threads was tried and
 * dropped: threads that end between two reads make it meaningless.)
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

  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "CPU time of the benchmark JVM (every thread) per operation";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    cpuAtStart = system.getProcessCpuTime();
  }

  @Override
  public List<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = system.getProcessCpuTime() - cpuAtStart;
    long operations = result.getMetadata().getAllOps();
    if (cpuAtStart < 0 || operations <= 0) {
      return List.of();
    }
    return List.of(
        new ScalarResult("cpu.per.op", (double) cpu / operations, "ns/op", AggregationPolicy.AVG));
  }
}
