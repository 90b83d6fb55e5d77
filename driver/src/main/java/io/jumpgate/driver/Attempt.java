package io.jumpgate.driver;

import java.time.Duration;
import java.util.Objects;

/**
 * One try of one command: where it went and how it ended. Carried by {@link CommandFailedException}
 * so a failure tells its whole story.
 *
 * <p>Immutable.
 *
 * @param number 1 for the first try
 * @param shard the shard the command was routed by (-1 for a command sent to a chosen node)
 * @param nodeId the node tried, or null when no node could be chosen
 * @param address {@code host:port} of the node, or null
 * @param revision the topology revision the route came from
 * @param error what went wrong, one line
 * @param elapsed time from the command's start to the end of this try
 */
public record Attempt(
    int number,
    int shard,
    String nodeId,
    String address,
    long revision,
    String error,
    Duration elapsed) {

  public Attempt {
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(elapsed, "elapsed");
  }

  @Override
  public String toString() {
    return "#"
        + number
        + " shard "
        + shard
        + " node "
        + (nodeId == null ? "-" : nodeId + " (" + address + ")")
        + " revision "
        + revision
        + " after "
        + elapsed.toMillis()
        + " ms: "
        + error;
  }
}
