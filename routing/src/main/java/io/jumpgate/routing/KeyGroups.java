package io.jumpgate.routing;

import io.jumpgate.spi.ShardRouter;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * The keys of one multi-key command, grouped for fan-out: by node (one sub-command per node) or by
 * shard.
 *
 * <p>A group is identified by a non-negative int (a node's index in the topology snapshot, or a
 * shard id). Inside a group, key indices keep the request order, so a caller that sends one
 * sub-command per group and writes each answer back at {@link #keyIndex} restores the request order
 * (MGET). Groups come out in ascending group id.
 *
 * <p>Built with primitive arrays only: no boxing per key, four arrays in all. Immutable once built
 * and safe to read from any thread.
 */
public final class KeyGroups {

  private final int[] shardOfKey;
  private final int[] keyIndices;
  private final int[] groupIds;
  private final int[] groupStarts;

  private KeyGroups(int[] shardOfKey, int[] keyIndices, int[] groupIds, int[] groupStarts) {
    this.shardOfKey = shardOfKey;
    this.keyIndices = keyIndices;
    this.groupIds = groupIds;
    this.groupStarts = groupStarts;
  }

  /** Groups keys by shard. */
  public static KeyGroups byShard(ShardRouter router, byte[][] keys) {
    return byGroup(router, keys, IntUnaryOperator.identity());
  }

  /**
   * Groups keys by whatever {@code groupOfShard} maps a shard to, typically the index of the node
   * that leads it.
   *
   * @param router computes each key's shard
   * @param keys the keys, none null
   * @param groupOfShard shard -> group id, at least 0; called once per key
   */
  public static KeyGroups byGroup(
      ShardRouter router, byte[][] keys, IntUnaryOperator groupOfShard) {
    Objects.requireNonNull(router, "router");
    Objects.requireNonNull(keys, "keys");
    return of(
        keys.length,
        index -> router.shardOf(Objects.requireNonNull(keys[index], "keys[" + index + "]")),
        groupOfShard);
  }

  /**
   * Groups {@code keyCount} keys given each key's shard and each shard's group.
   *
   * @param keyCount number of keys, at least 0
   * @param shardOfKey key index -> shard; called once per key
   * @param groupOfShard shard -> group id, at least 0; called once per key
   * @throws IllegalArgumentException if a group id is negative
   */
  public static KeyGroups of(
      int keyCount, IntUnaryOperator shardOfKey, IntUnaryOperator groupOfShard) {
    if (keyCount < 0) {
      throw new IllegalArgumentException("keyCount must be at least 0, was " + keyCount);
    }
    int[] shards = new int[keyCount];
    // (group << 32) | index sorts by group, then by request order: no boxing, one array.
    long[] sortKeys = new long[keyCount];
    for (int index = 0; index < keyCount; index++) {
      int shard = shardOfKey.applyAsInt(index);
      int group = groupOfShard.applyAsInt(shard);
      if (group < 0) {
        throw new IllegalArgumentException(
            "group of shard " + shard + " (key " + index + ") must be at least 0, was " + group);
      }
      shards[index] = shard;
      sortKeys[index] = ((long) group << 32) | index;
    }
    Arrays.sort(sortKeys);

    int[] keyIndices = new int[keyCount];
    int groupCount = 0;
    int previousGroup = -1;
    for (int position = 0; position < keyCount; position++) {
      int group = (int) (sortKeys[position] >>> 32);
      keyIndices[position] = (int) sortKeys[position];
      if (group != previousGroup) {
        groupCount++;
        previousGroup = group;
      }
    }
    int[] groupIds = new int[groupCount];
    int[] groupStarts = new int[groupCount + 1];
    int groupIndex = -1;
    previousGroup = -1;
    for (int position = 0; position < keyCount; position++) {
      int group = (int) (sortKeys[position] >>> 32);
      if (group != previousGroup) {
        groupIndex++;
        groupIds[groupIndex] = group;
        groupStarts[groupIndex] = position;
        previousGroup = group;
      }
    }
    groupStarts[groupCount] = keyCount;
    return new KeyGroups(shards, keyIndices, groupIds, groupStarts);
  }

  /** Number of keys grouped. */
  public int keyCount() {
    return shardOfKey.length;
  }

  /** Number of distinct groups. */
  public int groupCount() {
    return groupIds.length;
  }

  /** The id of group {@code group} (0 to {@code groupCount() - 1}): a node index or shard id. */
  public int groupId(int group) {
    return groupIds[group];
  }

  /** Number of keys in group {@code group}. */
  public int groupSize(int group) {
    return groupStarts[group + 1] - groupStarts[group];
  }

  /** Index, in the request, of the {@code position}-th key of group {@code group}. */
  public int keyIndex(int group, int position) {
    int size = groupSize(group);
    Objects.checkIndex(position, size);
    return keyIndices[groupStarts[group] + position];
  }

  /** Shard of the key at request index {@code keyIndex}. */
  public int shardOfKey(int keyIndex) {
    return shardOfKey[keyIndex];
  }

  @Override
  public String toString() {
    return "KeyGroups{keys=" + keyCount() + ", groups=" + groupCount() + "}";
  }
}
