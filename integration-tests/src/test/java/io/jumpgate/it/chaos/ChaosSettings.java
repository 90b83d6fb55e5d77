package io.jumpgate.it.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * What one chaos run does: how long faults go on, the seed of every random choice, the load, and
 * the margins its assertions allow. Immutable.
 *
 * <p>Two presets: {@link #shortMode} (the run inside {@code bin/test}: about 60 s of faults, every
 * fault type visited at least once) and {@link #longMode} ({@code bin/chaos --minutes N}). {@link
 * #fromSystemProperties} picks one from {@code chaos.minutes}, {@code chaos.seed} and {@code
 * chaos.report}, which {@code bin/chaos} passes through Maven to the failsafe JVM.
 *
 * @param mode "short" or "long", for the report
 * @param faultDuration how long the controller injects faults; the last fault then heals
 * @param seed the seed of every random choice of the controller
 * @param report where the JSON accounting is written
 * @param commandTimeout the driver's command deadline (retries included)
 * @param deadlineMargin how much later than its deadline a call may end before it counts as an
 *     overrun (see docs/reliability.md for why it is this large)
 * @param settle how soon after the faults stop every operation must succeed
 * @param writers writer threads (each owns its counters and versioned keys)
 * @param readers reader threads
 * @param opsPerSecondPerThread the pace of each writer and reader thread
 * @param shards virtual shards of the cluster
 * @param groups replication groups (a leader and a replica each)
 * @param pinnedShardsPerGroup shards of each group that never move between groups (the others move
 *     with their data, counters included)
 * @param pauseBetweenFaultsMin shortest pause between two faults
 * @param pauseBetweenFaultsMax longest pause between two faults
 */
public record ChaosSettings(
    String mode,
    Duration faultDuration,
    long seed,
    Path report,
    Duration commandTimeout,
    Duration deadlineMargin,
    Duration settle,
    int writers,
    int readers,
    int opsPerSecondPerThread,
    int shards,
    int groups,
    int pinnedShardsPerGroup,
    Duration pauseBetweenFaultsMin,
    Duration pauseBetweenFaultsMax) {

  /** The command deadline of both clients. */
  public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

  /**
   * How much later than its deadline a call may return. The deadline is enforced by a timer on
   * Lettuce's event loop; on a shared 2-core machine that also runs 3 etcd members, 6 redis-servers
   * and other builds, a loaded JVM (GC, a descheduled thread) delays the wake-up of that timer and
   * of the calling thread. 500 ms is half the deadline: a retry loop that ignored the deadline
   * would overrun by a whole try or backoff, far more.
   */
  public static final Duration DEADLINE_MARGIN = Duration.ofMillis(500);

  public ChaosSettings {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(report, "report");
    if (faultDuration.isNegative() || faultDuration.isZero()) {
      throw new IllegalArgumentException("faultDuration must be positive: " + faultDuration);
    }
    if (writers < 1 || readers < 1) {
      throw new IllegalArgumentException("at least one writer and one reader are needed");
    }
    if (groups < 2) {
      throw new IllegalArgumentException("shard moves need at least 2 groups: " + groups);
    }
    if (shards <= groups * pinnedShardsPerGroup) {
      throw new IllegalArgumentException(
          "shards ("
              + shards
              + ") must leave movable shards beside "
              + groups * pinnedShardsPerGroup
              + " pinned ones");
    }
  }

  /** The run of {@code bin/test}: 60 s of faults, every fault type at least once. */
  public static ChaosSettings shortMode(long seed, Path report) {
    return new ChaosSettings(
        "short",
        Duration.ofSeconds(60),
        seed,
        report,
        COMMAND_TIMEOUT,
        DEADLINE_MARGIN,
        Duration.ofSeconds(2),
        4,
        2,
        300,
        24,
        3,
        4,
        Duration.ofMillis(300),
        Duration.ofMillis(1500));
  }

  /** The run of {@code bin/chaos --minutes N}. */
  public static ChaosSettings longMode(Duration faults, long seed, Path report) {
    return new ChaosSettings(
        "long",
        faults,
        seed,
        report,
        COMMAND_TIMEOUT,
        DEADLINE_MARGIN,
        Duration.ofSeconds(2),
        4,
        2,
        300,
        24,
        3,
        4,
        Duration.ofMillis(500),
        Duration.ofMillis(3000));
  }

  /**
   * From {@code chaos.minutes} (absent: short mode; a number, possibly fractional: long mode with
   * that many minutes of faults), {@code chaos.seed} (absent: from the clock) and {@code
   * chaos.report} (absent: {@code defaultReport}).
   *
   * @throws IllegalArgumentException naming the property when a value is not a number
   */
  public static ChaosSettings fromSystemProperties(Path defaultReport) {
    String minutes = blankToNull(System.getProperty("chaos.minutes"));
    String seedText = blankToNull(System.getProperty("chaos.seed"));
    String reportText = blankToNull(System.getProperty("chaos.report"));
    long seed = seedText == null ? System.nanoTime() : parseLong("chaos.seed", seedText);
    Path report = reportText == null ? defaultReport : Path.of(reportText);
    if (minutes == null) {
      return shortMode(seed, report);
    }
    double value;
    try {
      value = Double.parseDouble(minutes);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("chaos.minutes is not a number: '" + minutes + "'", e);
    }
    if (!(value > 0) || value > 24 * 60) {
      throw new IllegalArgumentException(
          "chaos.minutes must be more than 0 and at most 1440: " + minutes);
    }
    return longMode(Duration.ofMillis(Math.round(value * 60_000)), seed, report);
  }

  private static long parseLong(String property, String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(property + " is not an integer: '" + text + "'", e);
    }
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }

  /** Shards that never move between groups: the first {@code pinnedShardsPerGroup * groups}. */
  public boolean isPinned(int shard) {
    return shard < groups * pinnedShardsPerGroup;
  }

  /** One line for the log. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "mode=%s faults=%ds seed=%d timeout=%dms margin=%dms writers=%d readers=%d"
            + " pace=%d/s/thread shards=%d groups=%d pinned=%d report=%s",
        mode,
        faultDuration.toSeconds(),
        seed,
        commandTimeout.toMillis(),
        deadlineMargin.toMillis(),
        writers,
        readers,
        opsPerSecondPerThread,
        shards,
        groups,
        groups * pinnedShardsPerGroup,
        report);
  }
}
