package io.jumpgate.driver;

import java.util.List;

/**
 * A multi-key command split over several nodes (MGET, MSET, DEL, UNLINK, EXISTS, TOUCH) failed on
 * at least one of its parts. Raised once every part ended, so it tells the whole picture: {@link
 * #parts()} lists every part in key order (the keys it held, its node, its {@link Outcome} and its
 * error), including the parts that were {@link Outcome#APPLIED}.
 *
 * <p>Nothing is undone on the parts that were applied: after a failed MSET or DEL, the keys of the
 * {@link Outcome#APPLIED} parts were written or deleted, those of the {@link Outcome#NOT_RUN} parts
 * were not, and those of the {@link Outcome#UNKNOWN} parts may have been.
 *
 * <p>{@link #outcome()} is {@link Outcome#NOT_RUN} only when every part is {@link Outcome#NOT_RUN};
 * otherwise {@link Outcome#UNKNOWN}: some part ran or may have. {@link #attempts()} is empty: each
 * part's error (a {@link CommandFailedException}) lists its own tries. {@link #getCause()} is the
 * error of the first failed part in key order.
 *
 * <p>Immutable once thrown.
 */
public class FanOutFailedException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  private final transient List<FanOutPart> parts;

  /**
   * @param message what went wrong, naming the failed parts
   * @param command the command's name, e.g. {@code MSET}
   * @param parts every part, in key order, at least one of them failed; copied
   */
  public FanOutFailedException(String message, String command, List<FanOutPart> parts) {
    super(message, command, List.of(), outcomeOf(parts), firstError(parts));
    this.parts = List.copyOf(parts);
  }

  private static Outcome outcomeOf(List<FanOutPart> parts) {
    for (FanOutPart part : parts) {
      if (part.outcome() != Outcome.NOT_RUN) {
        return Outcome.UNKNOWN;
      }
    }
    return Outcome.NOT_RUN;
  }

  private static Throwable firstError(List<FanOutPart> parts) {
    for (FanOutPart part : parts) {
      if (part.failed()) {
        return part.error();
      }
    }
    throw new IllegalArgumentException("a fan-out failure needs at least one failed part");
  }

  /** Every part of the command, in key order (by its first key index). */
  public List<FanOutPart> parts() {
    return parts;
  }

  /** The parts that did not end with a merged answer, in key order; never empty. */
  public List<FanOutPart> failedParts() {
    return parts.stream().filter(FanOutPart::failed).toList();
  }
}
