package io.jumpgate.bench.endtoend;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** A one-line description of the machine: cores, CPU model, OS, JDK, load average at start. */
final class Machine {
  private Machine() {}

  static String describe() {
    return String.format(
        Locale.ROOT,
        "%d cores, %s, %s %s (%s), JDK %s (%s), load average at start %.2f",
        Runtime.getRuntime().availableProcessors(),
        cpuModel(),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"),
        System.getProperty("java.runtime.version"),
        System.getProperty("java.vm.name"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: fall through
    }
    return "unknown CPU";
  }
}
