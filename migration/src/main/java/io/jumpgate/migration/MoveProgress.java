package io.jumpgate.migration;

/**
 * A {@link Mover}'s counters at one moment, for a progress line: read from any thread with {@link
 * Mover#progress()}. The key counters add up every copier of the migration.
 *
 * <p>Immutable.
 *
 * @param migrationId the migration's id, empty before a run started
 * @param phase where the mover is
 * @param shardsTotal shards of the plan
 * @param shardsCutOver shards led by their target now (including those a resumed run found moved)
 * @param shardsNotMoved shards given up for good (after the bounded retries)
 * @param groupsAttempted cutover attempts so far (each a freeze)
 * @param groupsGivenUp attempts whose freeze was lifted with nothing moved
 * @param keysCopied keys sent in a first copy
 * @param keysRecopied keys copied again because they changed on a source
 * @param bytesCopied approximate bytes the targets received
 * @param keysPending keys changed and not yet copied again
 * @param keysCleanedUp keys removed from sources after their cutover
 * @param writesAfterCutover writes seen on a source for a shard already cut over: a bug if not 0
 */
public record MoveProgress(
    String migrationId,
    MovePhase phase,
    int shardsTotal,
    int shardsCutOver,
    int shardsNotMoved,
    int groupsAttempted,
    int groupsGivenUp,
    long keysCopied,
    long keysRecopied,
    long bytesCopied,
    long keysPending,
    long keysCleanedUp,
    long writesAfterCutover) {}
