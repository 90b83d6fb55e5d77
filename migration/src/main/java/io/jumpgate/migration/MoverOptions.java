package io.jumpgate.migration;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.MigrationStore;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How a {@link Mover} runs. Immutable and thread-safe; built with {@link #builder()}, which fails
 * fast on a value out of range, naming it. Defaults:
 *
 * <ul>
 *   <li>{@code groupSize} {@value #DEFAULT_GROUP_SIZE} shards frozen and cut over together (at most
 *       {@link MigrationStore#MAX_SHARDS_PER_TRANSACTION}); {@value #DEFAULT_OFFLINE_GROUP_SIZE}
 *       when {@code offline} and no group size was set
 *   <li>{@code offline} false: when true, no change capture and no {@code CONFIG SET} at all (for
 *       servers that refuse it); each group is frozen, acknowledged by every client, then copied
 *       while frozen and cut over. The shards of a group stay frozen for the whole copy of the
 *       group, a SCAN pass over the whole source: longer than the drivers' freeze bound (5 s by
 *       default), held requests fail with the driver's retryable never-sent error; no write is
 *       lost. A resume of a migration recorded offline stays offline
 *   <li>{@code acknowledgementTimeout} {@link #DEFAULT_ACKNOWLEDGEMENT_TIMEOUT} (2 s): how long a
 *       freeze waits for every registered client's {@code drained} and for the source's stale
 *       connections to go before it is lifted with nothing moved
 *   <li>{@code groupAttempts} {@value #DEFAULT_GROUP_ATTEMPTS} tries per group, {@code
 *       retryBackoff} {@link #DEFAULT_RETRY_BACKOFF} (500 ms) before a group that gave up is tried
 *       again (other groups go first)
 *   <li>{@code cleanupGrace} {@link #DEFAULT_CLEANUP_GRACE} (5 s) after the last cutover before the
 *       moved keys are removed from the sources: keep it longer than the clients' command timeout
 *       (the driver's default is 2 s), so that no request sent before a cutover can still arrive
 *       afterwards unseen
 *   <li>{@code lockTtl} {@link MigrationStore#DEFAULT_LOCK_TTL} (10 s): the lock's lease; a mover
 *       that dies leaves the cluster serving from the sources once it expires
 *   <li>{@code catchUpBeforeFreeze} {@link #DEFAULT_CATCH_UP_BEFORE_FREEZE} (500 ms): at most this
 *       long copying changed keys before a group is frozen, so the drain under the freeze is short
 *   <li>{@code force} false: when true, registered clients without a {@code drained} field (drivers
 *       that do not take part in migrations) are not waited for. They keep writing to the old
 *       leader after the cutover: those writes are lost (they show up as writes after cutover)
 *   <li>{@code owner} {@code host:pid} of this process, written in the lock
 *   <li>{@code serverAddresses}: a node's address as the mover (and, for MIGRATE, the source) sees
 *       it, with credentials; default its {@code host} and {@code port}, no password
 *   <li>{@code copier} {@link ShardCopierOptions#defaults()}
 * </ul>
 */
public final class MoverOptions {

  public static final int DEFAULT_GROUP_SIZE = 8;

  /**
   * The group size of an offline move when none is set: each offline group costs a SCAN pass over
   * its whole source under its freeze, whatever its size, so fewer, larger groups cut the SCAN work
   * and the whole move's duration by as much, while each freeze grows only by the copy of the
   * group's own keys (docs/migration.md, "Offline moves").
   */
  public static final int DEFAULT_OFFLINE_GROUP_SIZE = 32;

  public static final Duration DEFAULT_ACKNOWLEDGEMENT_TIMEOUT = Duration.ofSeconds(2);
  public static final int DEFAULT_GROUP_ATTEMPTS = 3;
  public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(500);
  public static final Duration DEFAULT_CLEANUP_GRACE = Duration.ofSeconds(5);
  public static final Duration DEFAULT_CATCH_UP_BEFORE_FREEZE = Duration.ofMillis(500);

  private static final MoverOptions DEFAULTS = builder().build();

  private final int groupSize;
  private final boolean groupSizeSet;
  private final Duration acknowledgementTimeout;
  private final int groupAttempts;
  private final Duration retryBackoff;
  private final Duration cleanupGrace;
  private final Duration lockTtl;
  private final Duration catchUpBeforeFreeze;
  private final boolean force;
  private final boolean offline;
  private final String owner;
  private final Function<Node, ServerAddress> serverAddresses;
  private final ShardCopierOptions copier;

  private MoverOptions(Builder builder) {
    this.offline = builder.offline;
    this.groupSizeSet = builder.groupSize != 0;
    this.groupSize =
        builder.groupSize != 0
            ? builder.groupSize
            : offline ? DEFAULT_OFFLINE_GROUP_SIZE : DEFAULT_GROUP_SIZE;
    this.acknowledgementTimeout = builder.acknowledgementTimeout;
    this.groupAttempts = builder.groupAttempts;
    this.retryBackoff = builder.retryBackoff;
    this.cleanupGrace = builder.cleanupGrace;
    this.lockTtl = builder.lockTtl;
    this.catchUpBeforeFreeze = builder.catchUpBeforeFreeze;
    this.force = builder.force;
    this.owner = builder.owner;
    this.serverAddresses = builder.serverAddresses;
    this.copier = builder.copier;
  }

  public static MoverOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public int groupSize() {
    return groupSize;
  }

  /**
   * The group size of a move in the given mode: the one set, or that mode's default. A resumed
   * migration recorded offline runs offline whatever {@link #offline()} says, with this size.
   */
  public int groupSize(boolean offlineMove) {
    if (groupSizeSet) {
      return groupSize;
    }
    return offlineMove ? DEFAULT_OFFLINE_GROUP_SIZE : DEFAULT_GROUP_SIZE;
  }

  public Duration acknowledgementTimeout() {
    return acknowledgementTimeout;
  }

  public int groupAttempts() {
    return groupAttempts;
  }

  public Duration retryBackoff() {
    return retryBackoff;
  }

  public Duration cleanupGrace() {
    return cleanupGrace;
  }

  public Duration lockTtl() {
    return lockTtl;
  }

  public Duration catchUpBeforeFreeze() {
    return catchUpBeforeFreeze;
  }

  public boolean force() {
    return force;
  }

  /**
   * Whether shards move offline: frozen for the whole copy of their group, with no change capture
   * and no {@code CONFIG SET} on the sources.
   */
  public boolean offline() {
    return offline;
  }

  public String owner() {
    return owner;
  }

  public Function<Node, ServerAddress> serverAddresses() {
    return serverAddresses;
  }

  public ShardCopierOptions copier() {
    return copier;
  }

  @Override
  public String toString() {
    return "MoverOptions{groupSize="
        + groupSize
        + ", acknowledgementTimeout="
        + acknowledgementTimeout
        + ", groupAttempts="
        + groupAttempts
        + ", retryBackoff="
        + retryBackoff
        + ", cleanupGrace="
        + cleanupGrace
        + ", lockTtl="
        + lockTtl
        + ", catchUpBeforeFreeze="
        + catchUpBeforeFreeze
        + ", force="
        + force
        + ", offline="
        + offline
        + ", owner="
        + owner
        + ", copier="
        + copier
        + "}";
  }

  /** Not thread-safe; each setter checks its value at once. */
  public static final class Builder {

    private int groupSize; // 0: the default of the mode
    private Duration acknowledgementTimeout = DEFAULT_ACKNOWLEDGEMENT_TIMEOUT;
    private int groupAttempts = DEFAULT_GROUP_ATTEMPTS;
    private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
    private Duration cleanupGrace = DEFAULT_CLEANUP_GRACE;
    private Duration lockTtl = MigrationStore.DEFAULT_LOCK_TTL;
    private Duration catchUpBeforeFreeze = DEFAULT_CATCH_UP_BEFORE_FREEZE;
    private boolean force;
    private boolean offline;
    private String owner = defaultOwner();
    private Function<Node, ServerAddress> serverAddresses =
        node -> ServerAddress.of(node.host(), node.port());
    private ShardCopierOptions copier = ShardCopierOptions.defaults();

    private Builder() {}

    public Builder groupSize(int shards) {
      if (shards < 1 || shards > MigrationStore.MAX_SHARDS_PER_TRANSACTION) {
        throw new IllegalArgumentException(
            "groupSize must be 1 to "
                + MigrationStore.MAX_SHARDS_PER_TRANSACTION
                + ", was "
                + shards);
      }
      this.groupSize = shards;
      return this;
    }

    public Builder acknowledgementTimeout(Duration timeout) {
      this.acknowledgementTimeout = positive(timeout, "acknowledgementTimeout");
      return this;
    }

    public Builder groupAttempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("groupAttempts must be at least 1, was " + attempts);
      }
      this.groupAttempts = attempts;
      return this;
    }

    public Builder retryBackoff(Duration backoff) {
      Objects.requireNonNull(backoff, "retryBackoff");
      if (backoff.isNegative()) {
        throw new IllegalArgumentException("retryBackoff must not be negative, was " + backoff);
      }
      this.retryBackoff = backoff;
      return this;
    }

    public Builder cleanupGrace(Duration grace) {
      Objects.requireNonNull(grace, "cleanupGrace");
      if (grace.isNegative()) {
        throw new IllegalArgumentException("cleanupGrace must not be negative, was " + grace);
      }
      this.cleanupGrace = grace;
      return this;
    }

    public Builder lockTtl(Duration ttl) {
      Objects.requireNonNull(ttl, "lockTtl");
      if (ttl.toSeconds() < 2) {
        throw new IllegalArgumentException("lockTtl must be at least 2 s, was " + ttl);
      }
      this.lockTtl = ttl;
      return this;
    }

    public Builder catchUpBeforeFreeze(Duration bound) {
      this.catchUpBeforeFreeze = positive(bound, "catchUpBeforeFreeze");
      return this;
    }

    public Builder force(boolean force) {
      this.force = force;
      return this;
    }

    /**
     * Moves offline (see {@link MoverOptions#offline()}); also changes the default group size to
     * {@value MoverOptions#DEFAULT_OFFLINE_GROUP_SIZE} unless {@link #groupSize} is set.
     */
    public Builder offline(boolean offline) {
      this.offline = offline;
      return this;
    }

    public Builder owner(String owner) {
      Objects.requireNonNull(owner, "owner");
      if (owner.isBlank()) {
        throw new IllegalArgumentException("owner must not be blank");
      }
      this.owner = owner;
      return this;
    }

    public Builder serverAddresses(Function<Node, ServerAddress> addresses) {
      this.serverAddresses = Objects.requireNonNull(addresses, "serverAddresses");
      return this;
    }

    public Builder copier(ShardCopierOptions options) {
      this.copier = Objects.requireNonNull(options, "copier");
      return this;
    }

    public MoverOptions build() {
      return new MoverOptions(this);
    }

    private static Duration positive(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, was " + value);
      }
      return value;
    }

    private static String defaultOwner() {
      String host;
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        host = "unknown-host";
      }
      return host + ":" + ProcessHandle.current().pid();
    }
  }
}
