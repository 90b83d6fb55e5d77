package io.jumpgate.driver;

import java.time.Duration;
import java.util.Objects;

/**
 * How the driver retries a command that failed in a way that allows it (see {@code docs/driver.md},
 * "Retries"): a command the server provably did not run may be retried whatever it is; one whose
 * outcome is unknown only when a second run of it is harmless: reads and idempotent writes always,
 * writes that leave the same state but answer differently (SADD, HDEL, DEL, SETNX, ...) only with
 * {@link Builder#acceptSecondRunReplies(boolean)}, others (INCR, LPUSH, EVAL, ...) never.
 *
 * <p>Immutable; build with {@link #builder()}. Defaults:
 *
 * <ul>
 *   <li>{@code maxAttempts} 3 (the first try included)
 *   <li>{@code backoffBase} 10 ms, doubling per try up to {@code backoffMax} 200 ms, with full
 *       jitter (a random wait between half and all of the step)
 *   <li>{@code topologyWait} 500 ms: after READONLY or MOVED, how long to wait for a newer topology
 *       revision before trying again anyway
 *   <li>{@code acceptSecondRunReplies} false: a write that leaves the same state when run twice but
 *       answers differently is not sent again after an unknown outcome
 * </ul>
 *
 * Every wait is also bounded by the command's own deadline.
 */
public final class RetryOptions {

  public static final int DEFAULT_MAX_ATTEMPTS = 3;
  public static final Duration DEFAULT_BACKOFF_BASE = Duration.ofMillis(10);
  public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofMillis(200);
  public static final Duration DEFAULT_TOPOLOGY_WAIT = Duration.ofMillis(500);
  public static final boolean DEFAULT_ACCEPT_SECOND_RUN_REPLIES = false;

  private static final RetryOptions DEFAULTS = builder().build();

  private final int maxAttempts;
  private final Duration backoffBase;
  private final Duration backoffMax;
  private final Duration topologyWait;
  private final boolean acceptSecondRunReplies;

  private RetryOptions(Builder builder) {
    this.maxAttempts = builder.maxAttempts;
    this.backoffBase = builder.backoffBase;
    this.backoffMax = builder.backoffMax;
    this.topologyWait = builder.topologyWait;
    this.acceptSecondRunReplies = builder.acceptSecondRunReplies;
  }

  /** The defaults. */
  public static RetryOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these options. */
  public Builder mutate() {
    return new Builder()
        .maxAttempts(maxAttempts)
        .backoff(backoffBase, backoffMax)
        .topologyWait(topologyWait)
        .acceptSecondRunReplies(acceptSecondRunReplies);
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration backoffBase() {
    return backoffBase;
  }

  public Duration backoffMax() {
    return backoffMax;
  }

  public Duration topologyWait() {
    return topologyWait;
  }

  /**
   * Whether a write that leaves the same state when run twice but answers differently (SADD, SREM,
   * HSET, HDEL, ZADD, ZREM, DEL, UNLINK, EXPIRE, PERSIST, SETNX, SET NX, GETSET, GETDEL, ...) is
   * sent again after a try whose outcome is unknown. False by default; see {@link
   * Builder#acceptSecondRunReplies(boolean)}.
   */
  public boolean acceptSecondRunReplies() {
    return acceptSecondRunReplies;
  }

  /**
   * The wait before try {@code nextAttempt} (2 for the first retry), given a random number in
   * {@code [0, 1)}: between half and all of {@code min(backoffMax, backoffBase * 2^(nextAttempt -
   * 2))}.
   */
  public long backoffNanos(int nextAttempt, double random) {
    long step = backoffBase.toNanos() << Math.min(30, Math.max(0, nextAttempt - 2));
    step = Math.min(step, backoffMax.toNanos());
    return step / 2 + (long) (random * (step / 2));
  }

  @Override
  public String toString() {
    return "RetryOptions{maxAttempts="
        + maxAttempts
        + ", backoff="
        + backoffBase.toMillis()
        + ".."
        + backoffMax.toMillis()
        + " ms, topologyWait="
        + topologyWait.toMillis()
        + " ms, acceptSecondRunReplies="
        + acceptSecondRunReplies
        + "}";
  }

  /** Builds {@link RetryOptions}; fails fast on a bad value, naming it. Not thread-safe. */
  public static final class Builder {
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private Duration backoffBase = DEFAULT_BACKOFF_BASE;
    private Duration backoffMax = DEFAULT_BACKOFF_MAX;
    private Duration topologyWait = DEFAULT_TOPOLOGY_WAIT;
    private boolean acceptSecondRunReplies = DEFAULT_ACCEPT_SECOND_RUN_REPLIES;

    private Builder() {}

    /** Tries in all, the first included: 1 disables retries. */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1 || attempts > 100) {
        throw new IllegalArgumentException(
            "retry maxAttempts must be between 1 and 100, was " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    public Builder backoff(Duration base, Duration max) {
      Objects.requireNonNull(base, "backoff base");
      Objects.requireNonNull(max, "backoff max");
      if (base.isNegative() || max.isNegative() || max.compareTo(base) < 0) {
        throw new IllegalArgumentException(
            "retry backoff must satisfy 0 <= base <= max, was base=" + base + " max=" + max);
      }
      this.backoffBase = base;
      this.backoffMax = max;
      return this;
    }

    public Builder topologyWait(Duration wait) {
      Objects.requireNonNull(wait, "topologyWait");
      if (wait.isNegative()) {
        throw new IllegalArgumentException("retry topologyWait must not be negative, was " + wait);
      }
      this.topologyWait = wait;
      return this;
    }

    /**
     * Whether to send again, after a try whose outcome is unknown (a connection lost after the
     * command was written), a write that leaves the same state when run twice but answers
     * differently: SADD, SREM, HSET, HDEL, ZADD, ZREM, DEL, UNLINK, EXPIRE, PEXPIRE, EXPIREAT,
     * PERSIST, SETNX, SET with NX/XX/IFEQ, SET ... GET, GETSET, GETDEL. Default false: such a
     * command fails with {@link Outcome#UNKNOWN} instead.
     *
     * <p>With true, the data ends the same, but the reply may be the second run's: SADD answers 0
     * for a member the lost first run added, SETNX false for a key it set, GETDEL null for a value
     * it deleted. Turn it on only where no caller acts on these replies (as {@code if (sadd(seen,
     * id) == 1) process(id)} does). Reads and idempotent writes are sent again either way; INCR,
     * LPUSH, EVAL and the like never.
     */
    public Builder acceptSecondRunReplies(boolean accept) {
      this.acceptSecondRunReplies = accept;
      return this;
    }

    public RetryOptions build() {
      return new RetryOptions(this);
    }
  }
}
