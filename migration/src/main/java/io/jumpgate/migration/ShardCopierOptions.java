package io.jumpgate.migration;

import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link ShardCopier}. Immutable and thread-safe; build with {@link #builder()}, or
 * take the defaults with {@link #defaults()}.
 *
 * <p>Defaults:
 *
 * <ul>
 *   <li>{@code copyMethod} {@link CopyMethod#MIGRATE}
 *   <li>{@code batchSize} {@value #DEFAULT_BATCH_SIZE} keys per MIGRATE (or per DUMP/RESTORE round)
 *   <li>{@code pipelineDepth} {@value #DEFAULT_PIPELINE_DEPTH} batches in flight at once
 *   <li>{@code scanCount} {@value #DEFAULT_SCAN_COUNT} (the COUNT hint of each SCAN)
 *   <li>{@code migrateTimeout} 5 s (MIGRATE's own timeout: the longest the source may wait on the
 *       target for one batch, during which it serves nobody else)
 *   <li>{@code commandTimeout} 10 s (the longest any one command or batch is waited for)
 *   <li>{@code connectTimeout} 5 s
 *   <li>{@code barrierTimeout} 1 s (the longest the drain barrier may take to come back)
 *   <li>{@code drainTimeout} 5 s (the longest a whole {@link ShardCopier#drain} may take)
 *   <li>{@code catchUpTimeout} 10 s (how long {@link ShardCopier#copy()} keeps copying changed keys
 *       again after its SCAN pass before it returns with keys still pending)
 *   <li>{@code copyKeysPerSecond} 0: no bound on the SCAN pass of {@link ShardCopier#copy()}; a
 *       bound leaves the servers room for the clients (a longer copy, never a longer freeze: the
 *       drain is never held back)
 *   <li>{@code cleanupKeysPerSecond} {@value #DEFAULT_CLEANUP_KEYS_PER_SECOND}, {@code
 *       cleanupBatchSize} {@value #DEFAULT_CLEANUP_BATCH_SIZE}
 * </ul>
 */
public final class ShardCopierOptions {

  public static final int DEFAULT_BATCH_SIZE = 1000;
  public static final int DEFAULT_PIPELINE_DEPTH = 4;
  public static final int DEFAULT_SCAN_COUNT = 1000;
  public static final Duration DEFAULT_MIGRATE_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_BARRIER_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_CATCH_UP_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_CLEANUP_KEYS_PER_SECOND = 50_000;
  public static final int DEFAULT_CLEANUP_BATCH_SIZE = 500;

  private static final ShardCopierOptions DEFAULTS = builder().build();

  private final CopyMethod copyMethod;
  private final int batchSize;
  private final int pipelineDepth;
  private final int scanCount;
  private final Duration migrateTimeout;
  private final Duration commandTimeout;
  private final Duration connectTimeout;
  private final Duration barrierTimeout;
  private final Duration drainTimeout;
  private final Duration catchUpTimeout;
  private final int cleanupKeysPerSecond;
  private final int cleanupBatchSize;
  private final int copyKeysPerSecond;

  private ShardCopierOptions(Builder builder) {
    this.copyMethod = builder.copyMethod;
    this.batchSize = builder.batchSize;
    this.pipelineDepth = builder.pipelineDepth;
    this.scanCount = builder.scanCount;
    this.migrateTimeout = builder.migrateTimeout;
    this.commandTimeout = builder.commandTimeout;
    this.connectTimeout = builder.connectTimeout;
    this.barrierTimeout = builder.barrierTimeout;
    this.drainTimeout = builder.drainTimeout;
    this.catchUpTimeout = builder.catchUpTimeout;
    this.cleanupKeysPerSecond = builder.cleanupKeysPerSecond;
    this.cleanupBatchSize = builder.cleanupBatchSize;
    this.copyKeysPerSecond = builder.copyKeysPerSecond;
  }

  public static ShardCopierOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these options. */
  public Builder mutate() {
    Builder builder = new Builder();
    builder.copyMethod = copyMethod;
    builder.batchSize = batchSize;
    builder.pipelineDepth = pipelineDepth;
    builder.scanCount = scanCount;
    builder.migrateTimeout = migrateTimeout;
    builder.commandTimeout = commandTimeout;
    builder.connectTimeout = connectTimeout;
    builder.barrierTimeout = barrierTimeout;
    builder.drainTimeout = drainTimeout;
    builder.catchUpTimeout = catchUpTimeout;
    builder.cleanupKeysPerSecond = cleanupKeysPerSecond;
    builder.cleanupBatchSize = cleanupBatchSize;
    builder.copyKeysPerSecond = copyKeysPerSecond;
    return builder;
  }

  public CopyMethod copyMethod() {
    return copyMethod;
  }

  public int batchSize() {
    return batchSize;
  }

  public int pipelineDepth() {
    return pipelineDepth;
  }

  public int scanCount() {
    return scanCount;
  }

  public Duration migrateTimeout() {
    return migrateTimeout;
  }

  public Duration commandTimeout() {
    return commandTimeout;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration barrierTimeout() {
    return barrierTimeout;
  }

  public Duration drainTimeout() {
    return drainTimeout;
  }

  public Duration catchUpTimeout() {
    return catchUpTimeout;
  }

  public int cleanupKeysPerSecond() {
    return cleanupKeysPerSecond;
  }

  public int cleanupBatchSize() {
    return cleanupBatchSize;
  }

  /** The bound on keys copied per second by the SCAN pass; 0 for none. */
  public int copyKeysPerSecond() {
    return copyKeysPerSecond;
  }

  @Override
  public String toString() {
    return "ShardCopierOptions{copyMethod="
        + copyMethod
        + ", batchSize="
        + batchSize
        + ", pipelineDepth="
        + pipelineDepth
        + ", scanCount="
        + scanCount
        + ", migrateTimeout="
        + migrateTimeout
        + ", commandTimeout="
        + commandTimeout
        + ", copyKeysPerSecond="
        + copyKeysPerSecond
        + "}";
  }

  /** Builds {@link ShardCopierOptions}; not thread-safe. Each setter checks its value. */
  public static final class Builder {
    private CopyMethod copyMethod = CopyMethod.MIGRATE;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int pipelineDepth = DEFAULT_PIPELINE_DEPTH;
    private int scanCount = DEFAULT_SCAN_COUNT;
    private Duration migrateTimeout = DEFAULT_MIGRATE_TIMEOUT;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration barrierTimeout = DEFAULT_BARRIER_TIMEOUT;
    private Duration drainTimeout = DEFAULT_DRAIN_TIMEOUT;
    private Duration catchUpTimeout = DEFAULT_CATCH_UP_TIMEOUT;
    private int cleanupKeysPerSecond = DEFAULT_CLEANUP_KEYS_PER_SECOND;
    private int cleanupBatchSize = DEFAULT_CLEANUP_BATCH_SIZE;
    private int copyKeysPerSecond;

    private Builder() {}

    public Builder copyMethod(CopyMethod method) {
      this.copyMethod = Objects.requireNonNull(method, "copyMethod");
      return this;
    }

    /** Keys per MIGRATE or per DUMP/RESTORE round, 1 to 100,000. */
    public Builder batchSize(int keys) {
      this.batchSize = inRange("batchSize", keys, 1, 100_000);
      return this;
    }

    /** Batches in flight at once, 1 to 1,000. */
    public Builder pipelineDepth(int batches) {
      this.pipelineDepth = inRange("pipelineDepth", batches, 1, 1_000);
      return this;
    }

    /** The COUNT hint of each SCAN, 1 to 1,000,000. */
    public Builder scanCount(int count) {
      this.scanCount = inRange("scanCount", count, 1, 1_000_000);
      return this;
    }

    /** MIGRATE's own timeout, at least 1 ms. */
    public Builder migrateTimeout(Duration timeout) {
      this.migrateTimeout = positive("migrateTimeout", timeout);
      return this;
    }

    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = positive("commandTimeout", timeout);
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive("connectTimeout", timeout);
      return this;
    }

    public Builder barrierTimeout(Duration timeout) {
      this.barrierTimeout = positive("barrierTimeout", timeout);
      return this;
    }

    public Builder drainTimeout(Duration timeout) {
      this.drainTimeout = positive("drainTimeout", timeout);
      return this;
    }

    /** How long {@link ShardCopier#copy()} copies changed keys after its SCAN pass; may be 0. */
    public Builder catchUpTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "catchUpTimeout");
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("catchUpTimeout must not be negative, was " + timeout);
      }
      this.catchUpTimeout = timeout;
      return this;
    }

    /** The most keys {@link ShardCopier#cleanup()} removes per second, at least 1. */
    /**
     * The most keys per second the SCAN pass of {@link ShardCopier#copy()} copies, 0 (the default)
     * for no bound; the copies of changed keys and the drain are never held back.
     */
    public Builder copyKeysPerSecond(int keys) {
      this.copyKeysPerSecond = inRange("copyKeysPerSecond", keys, 0, Integer.MAX_VALUE);
      return this;
    }

    public Builder cleanupKeysPerSecond(int keys) {
      this.cleanupKeysPerSecond = inRange("cleanupKeysPerSecond", keys, 1, Integer.MAX_VALUE);
      return this;
    }

    /** Keys per UNLINK of the cleanup, 1 to 100,000. */
    public Builder cleanupBatchSize(int keys) {
      this.cleanupBatchSize = inRange("cleanupBatchSize", keys, 1, 100_000);
      return this;
    }

    /**
     * @throws IllegalArgumentException if {@code commandTimeout} is not longer than {@code
     *     migrateTimeout} (a MIGRATE would be given up before the source does)
     */
    public ShardCopierOptions build() {
      if (commandTimeout.compareTo(migrateTimeout) <= 0) {
        throw new IllegalArgumentException(
            "commandTimeout ("
                + commandTimeout
                + ") must be longer than migrateTimeout ("
                + migrateTimeout
                + ")");
      }
      return new ShardCopierOptions(this);
    }

    private static int inRange(String name, int value, int min, int max) {
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            name + " must be " + min + " to " + max + ", was " + value);
      }
      return value;
    }

    private static Duration positive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, was " + value);
      }
      return value;
    }
  }
}
