package io.jumpgate.migration;

import java.time.Duration;

/**
 * What {@link ShardCopier#cleanup()} did.
 *
 * <p>Immutable.
 *
 * @param keysDeleted keys of the cut-over shards removed from the source
 * @param took how long it ran, throttle included
 */
public record CleanupResult(long keysDeleted, Duration took) {}
