package io.jumpgate.migration.internal;

import java.util.BitSet;

/**
 * An immutable set of shard ids in {@code [0, shardCount)}.
 *
 * <p>Immutable and thread-safe: the engine publishes a new instance through a volatile field
 * instead of changing one, so that the pub/sub thread reads a consistent set without a lock.
 */
public final class ShardSet {

  private final BitSet shards;
  private final int shardCount;

  private ShardSet(BitSet shards, int shardCount) {
    this.shards = shards;
    this.shardCount = shardCount;
  }

  /** The empty set of a cluster of {@code shardCount} shards. */
  public static ShardSet empty(int shardCount) {
    return new ShardSet(new BitSet(shardCount), shardCount);
  }

  /**
   * A copy of {@code shards}, checked against {@code shardCount}.
   *
   * @throws IllegalArgumentException if a shard is outside {@code [0, shardCount)}, naming it
   */
  public static ShardSet of(BitSet shards, int shardCount) {
    if (shards.length() > shardCount) {
      throw new IllegalArgumentException(
          "shard "
              + (shards.length() - 1)
              + " is outside the cluster's "
              + shardCount
              + " shards (0 to "
              + (shardCount - 1)
              + ")");
    }
    return new ShardSet((BitSet) shards.clone(), shardCount);
  }

  public boolean contains(int shard) {
    return shards.get(shard);
  }

  public boolean isEmpty() {
    return shards.isEmpty();
  }

  public int size() {
    return shards.cardinality();
  }

  public int shardCount() {
    return shardCount;
  }

  /** Whether every shard of {@code other} is in this set. */
  public boolean containsAll(ShardSet other) {
    BitSet outside = (BitSet) other.shards.clone();
    outside.andNot(shards);
    return outside.isEmpty();
  }

  public ShardSet union(ShardSet other) {
    BitSet union = (BitSet) shards.clone();
    union.or(other.shards);
    return new ShardSet(union, shardCount);
  }

  public ShardSet minus(ShardSet other) {
    BitSet difference = (BitSet) shards.clone();
    difference.andNot(other.shards);
    return new ShardSet(difference, shardCount);
  }

  /** A mutable copy for callers. */
  public BitSet toBitSet() {
    return (BitSet) shards.clone();
  }

  @Override
  public String toString() {
    return shards.toString();
  }
}
