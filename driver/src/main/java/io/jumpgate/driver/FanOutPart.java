package io.jumpgate.driver;

import java.util.List;
import java.util.Objects;

/**
 * One part of a failed multi-key command (MGET, MSET, DEL, UNLINK, EXISTS, TOUCH): the keys sent
 * together to one node, and how that part ended. Carried by {@link FanOutFailedException#parts()}.
 *
 * <p>{@link #outcome()} is {@link Outcome#APPLIED} when the node answered (with {@link #error()}
 * null, or set when the answer was a server error or could not be merged), else the outcome of the
 * part's own failure ({@link Outcome#NOT_RUN} or {@link Outcome#UNKNOWN}).
 *
 * <p>Immutable; safe from any thread.
 *
 * @param nodeId the node the part was last sent to, or null when it had no node (its shard had no
 *     route, so it was never sent)
 * @param address {@code host:port} of that node, or null
 * @param keyIndices the part's keys as indices into the request (MSET: the map's iteration order),
 *     ascending; never empty
 * @param outcome whether the part ran
 * @param error why the part failed, or null when it was answered and merged
 */
public record FanOutPart(
    String nodeId, String address, List<Integer> keyIndices, Outcome outcome, Throwable error) {

  public FanOutPart {
    keyIndices = List.copyOf(keyIndices);
    if (keyIndices.isEmpty()) {
      throw new IllegalArgumentException("a part holds at least one key");
    }
    Objects.requireNonNull(outcome, "outcome");
    if (error == null && outcome != Outcome.APPLIED) {
      throw new IllegalArgumentException("a part that is " + outcome + " needs its error");
    }
  }

  /** True when the part did not end with a merged answer. */
  public boolean failed() {
    return error != null;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("keys ");
    int shown = Math.min(keyIndices.size(), 10);
    text.append('[');
    for (int index = 0; index < shown; index++) {
      text.append(index == 0 ? "" : ", ").append(keyIndices.get(index));
    }
    if (shown < keyIndices.size()) {
      text.append(", ... ").append(keyIndices.size()).append(" keys");
    }
    text.append("] on ")
        .append(nodeId == null ? "no node" : nodeId + " (" + address + ")")
        .append(": ")
        .append(outcome);
    if (error != null) {
      String message = error.getMessage();
      text.append(", ")
          .append(error.getClass().getSimpleName())
          .append(message == null ? "" : ": " + message);
    }
    return text.toString();
  }
}
