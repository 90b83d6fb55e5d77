package io.jumpgate.migration;

import java.util.BitSet;

/**
 * The subscription to the source's keyspace notifications dropped: the changes made while it was
 * down are unknown, so the target cannot be trusted for {@link #shards()}. Copy those shards again
 * from scratch with a new {@link ShardCopier}.
 *
 * <p>Immutable and safe to pass between threads.
 */
public final class ChangeCaptureLostException extends MigrationException {

  private static final long serialVersionUID = 1L;

  private final BitSet shards;

  public ChangeCaptureLostException(String message, BitSet shards) {
    super(message);
    this.shards = (BitSet) shards.clone();
  }

  /** The shards being moved and not yet cut over when the subscription dropped (a copy). */
  public BitSet shards() {
    return (BitSet) shards.clone();
  }
}
