package io.jumpgate.migration;

import java.time.Duration;

/**
 * What {@link ShardCopier#drain} did.
 *
 * <p>Immutable.
 *
 * @param barrierTime from PUBLISH of the barrier to its arrival on the subscription
 * @param totalTime the whole drain, barrier and last copies
 * @param keysCopied keys copied (or deleted on the target) after the barrier arrived
 */
public record DrainResult(Duration barrierTime, Duration totalTime, int keysCopied) {}
