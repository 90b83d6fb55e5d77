package io.jumpgate.topology;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link TopologyAdmin} cuts its writes into etcd transactions, and how long the lock of an
 * {@code init} lives. Where etcd is, which cluster, the credentials and the timeout of each call
 * come from {@link EtcdTopologyOptions}.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}. Defaults:
 *
 * <ul>
 *   <li>{@code maxOperationsPerTransaction}: {@value #DEFAULT_MAX_OPERATIONS} puts or deletes per
 *       transaction. etcd refuses a transaction of more than {@code --max-txn-ops} operations (128
 *       by default) with "etcdserver: too many operations in txn request"; 100 leaves room for the
 *       lock operations of {@code init}. Raise it only if every etcd member runs with a higher
 *       {@code --max-txn-ops}.
 *   <li>{@code maxBytesPerTransaction}: {@value #DEFAULT_MAX_BYTES} bytes of keys and values per
 *       transaction (etcd refuses a request above {@code --max-request-bytes}, 1.5 MiB by default).
 *       A single entry larger than this still goes alone in one transaction.
 *   <li>{@code initLockTtl}: {@link #DEFAULT_INIT_LOCK_TTL} (60 s), the lease of {@code
 *       <root>/init-lock}: how long a crashed {@code init} keeps another one out. A running init
 *       renews the lease while it writes, so the TTL does not limit how long an init may take.
 * </ul>
 */
public final class TopologyAdminOptions {

  /** Default for {@link #maxOperationsPerTransaction()}. */
  public static final int DEFAULT_MAX_OPERATIONS = 100;

  /** Default for {@link #maxBytesPerTransaction()}: 1 MiB. */
  public static final int DEFAULT_MAX_BYTES = 1 << 20;

  /** Default for {@link #initLockTtl()}. */
  public static final Duration DEFAULT_INIT_LOCK_TTL = Duration.ofSeconds(60);

  /** The fewest operations per transaction: init's last one needs room for meta and the lock. */
  public static final int MIN_OPERATIONS = 3;

  private static final TopologyAdminOptions DEFAULTS = builder().build();

  private final int maxOperationsPerTransaction;
  private final int maxBytesPerTransaction;
  private final Duration initLockTtl;

  private TopologyAdminOptions(Builder builder) {
    this.maxOperationsPerTransaction = builder.maxOperationsPerTransaction;
    this.maxBytesPerTransaction = builder.maxBytesPerTransaction;
    this.initLockTtl = builder.initLockTtl;
  }

  /** The defaults. */
  public static TopologyAdminOptions defaults() {
    return DEFAULTS;
  }

  /** A builder with every default set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The most puts and deletes in one etcd transaction. */
  public int maxOperationsPerTransaction() {
    return maxOperationsPerTransaction;
  }

  /** The most bytes of keys and values in one etcd transaction. */
  public int maxBytesPerTransaction() {
    return maxBytesPerTransaction;
  }

  /** The TTL of the lease that holds {@code <root>/init-lock}. */
  public Duration initLockTtl() {
    return initLockTtl;
  }

  @Override
  public String toString() {
    return "TopologyAdminOptions{maxOperationsPerTransaction="
        + maxOperationsPerTransaction
        + ", maxBytesPerTransaction="
        + maxBytesPerTransaction
        + ", initLockTtl="
        + initLockTtl
        + "}";
  }

  /** Builds {@link TopologyAdminOptions}. Not thread-safe; fails fast on bad values. */
  public static final class Builder {
    private int maxOperationsPerTransaction = DEFAULT_MAX_OPERATIONS;
    private int maxBytesPerTransaction = DEFAULT_MAX_BYTES;
    private Duration initLockTtl = DEFAULT_INIT_LOCK_TTL;

    private Builder() {}

    /**
     * @throws IllegalArgumentException if below {@value #MIN_OPERATIONS} or above 100000
     */
    public Builder maxOperationsPerTransaction(int operations) {
      if (operations < MIN_OPERATIONS || operations > 100_000) {
        throw new IllegalArgumentException(
            "maxOperationsPerTransaction must be between "
                + MIN_OPERATIONS
                + " and 100000, was "
                + operations);
      }
      this.maxOperationsPerTransaction = operations;
      return this;
    }

    /**
     * @throws IllegalArgumentException if below 1024
     */
    public Builder maxBytesPerTransaction(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException(
            "maxBytesPerTransaction must be at least 1024, was " + bytes);
      }
      this.maxBytesPerTransaction = bytes;
      return this;
    }

    /**
     * @throws IllegalArgumentException if shorter than 2 seconds (etcd's leases count in seconds)
     */
    public Builder initLockTtl(Duration ttl) {
      Objects.requireNonNull(ttl, "initLockTtl");
      if (ttl.compareTo(Duration.ofSeconds(2)) < 0) {
        throw new IllegalArgumentException("initLockTtl must be at least 2 s, was " + ttl);
      }
      this.initLockTtl = ttl;
      return this;
    }

    public TopologyAdminOptions build() {
      return new TopologyAdminOptions(this);
    }
  }
}
