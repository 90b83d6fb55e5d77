package io.jumpgate.migration;

/**
 * A snapshot of a {@link ShardCopier}'s counters, for a progress line. Counters only grow, except
 * {@code keysPending}.
 *
 * <p>Immutable.
 *
 * @param keysScanned keys the SCAN pass listed on the source, of every shard
 * @param keysCopied keys of the moved shards sent in a first copy
 * @param bytesCopied approximate bytes the target received (its {@code total_net_input_bytes} with
 *     MIGRATE, the DUMP payloads and key names with DUMP/RESTORE)
 * @param keysRecopied keys copied again because they changed on the source
 * @param keysDeleted keys whose last change was a deletion, removed on the target
 * @param keysPending keys changed and not yet copied again, or being copied
 * @param keysCleanedUp keys removed from the source by {@link ShardCopier#cleanup()}
 * @param writesAfterCutover writes seen on the source for shards already cut over: a bug if not 0
 * @param changeCaptureLost whether the notification subscription dropped
 */
public record CopyProgress(
    long keysScanned,
    long keysCopied,
    long bytesCopied,
    long keysRecopied,
    long keysDeleted,
    long keysPending,
    long keysCleanedUp,
    long writesAfterCutover,
    boolean changeCaptureLost) {}
