package io.jumpgate.bench.timing;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What else the machine and this JVM were doing during a measurement: the system load average (1
 * min) at start and end, and this JVM's garbage collections in between. On a shared 2-core machine
 * a timing tail is only meaningful next to these. Immutable; thread-safe.
 *
 * @param loadAverage the 1-minute system load average when taken, or -1 where unknown
 * @param gcCount collections of this JVM so far
 * @param gcMillis milliseconds spent in collections of this JVM so far
 * @param processCpuNanos CPU time used by this JVM so far, or -1 where unknown
 */
public record MachineLoad(double loadAverage, long gcCount, long gcMillis, long processCpuNanos) {

  /** The current readings. */
  public static MachineLoad now() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, collector.getCollectionCount());
      millis += Math.max(0, collector.getCollectionTime());
    }
    long cpu = -1;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean system) {
      cpu = system.getProcessCpuTime();
    }
    return new MachineLoad(
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), count, millis, cpu);
  }

  /** The readings from {@code start} to this one, as JSON fields. */
  public Map<String, Object> since(MachineLoad start) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("loadAverageAtStart", start.loadAverage);
    json.put("loadAverageAtEnd", loadAverage);
    json.put("availableProcessors", Runtime.getRuntime().availableProcessors());
    json.put("gcCount", gcCount - start.gcCount);
    json.put("gcMillis", gcMillis - start.gcMillis);
    json.put(
        "processCpuMs",
        processCpuNanos < 0 || start.processCpuNanos < 0
            ? null
            : (processCpuNanos - start.processCpuNanos) / 1e6);
    return json;
  }
}
