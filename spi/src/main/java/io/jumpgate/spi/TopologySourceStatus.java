package io.jumpgate.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How current a topology source is: whether it is in contact with its store, and when it last knew
 * its snapshot to be current.
 *
 * <p>While the store is unreachable the source keeps serving its last snapshot; {@link
 * #ageAt(Instant)} then grows, and health checks compare it with a threshold. Immutable.
 *
 * @param connected whether the source is in contact with its store right now
 * @param revision the revision of the current snapshot, or -1 before the first one
 * @param confirmedAt when the source last knew its snapshot matched the store (a watch event, a
 *     progress notification, a successful read, a file check), or null before the first one
 * @param lastError the last error the source met, or null; a message only, never a credential
 */
public record TopologySourceStatus(
    boolean connected, long revision, Instant confirmedAt, String lastError) {

  /** How old the snapshot's confirmation is at {@code now}; {@link Duration#ZERO} if never. */
  public Duration ageAt(Instant now) {
    return confirmedAt == null ? Duration.ZERO : Duration.between(confirmedAt, now);
  }

  /** The last error, if any. */
  public Optional<String> lastErrorIfAny() {
    return Optional.ofNullable(lastError);
  }
}
