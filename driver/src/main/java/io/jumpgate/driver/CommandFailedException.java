package io.jumpgate.driver;

import io.jumpgate.spi.JumpgateException;
import java.util.List;

/**
 * A command failed in the driver: it could not be delivered, its answer did not come in time, or
 * every allowed try failed. Server errors that are the command's own answer (WRONGTYPE, ERR ...)
 * are not wrapped: they reach the caller as Lettuce's {@code RedisCommandExecutionException}.
 *
 * <p>{@link #outcome()} tells whether the command may have run: {@link Outcome#NOT_RUN} when no try
 * of it can have run, {@link Outcome#UNKNOWN} when one may have (a timeout, a connection lost after
 * the command was written). A command that is not idempotent, such as INCR, is never sent again by
 * the driver once its outcome is unknown.
 *
 * <p>Immutable once thrown.
 */
public class CommandFailedException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  private final String command;
  private final transient List<Attempt> attempts;
  private final Outcome outcome;

  /**
   * @param message what went wrong
   * @param command the command's name, e.g. {@code INCR}
   * @param attempts every try, in order; copied
   * @param outcome {@link Outcome#NOT_RUN} when no try can have run, else {@link Outcome#UNKNOWN}
   * @param cause the last underlying failure
   */
  public CommandFailedException(
      String message, String command, List<Attempt> attempts, Outcome outcome, Throwable cause) {
    super(message + describe(attempts), cause);
    if (outcome == null || outcome == Outcome.APPLIED) {
      throw new IllegalArgumentException(
          "a failed command's outcome is NOT_RUN or UNKNOWN, not " + outcome);
    }
    this.command = command;
    this.attempts = List.copyOf(attempts);
    this.outcome = outcome;
  }

  private static String describe(List<Attempt> attempts) {
    if (attempts.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder(" [attempts: ");
    for (int index = 0; index < attempts.size(); index++) {
      text.append(index == 0 ? "" : "; ").append(attempts.get(index));
    }
    return text.append(']').toString();
  }

  /** The command's name. */
  public String command() {
    return command;
  }

  /** Every try, in order. */
  public List<Attempt> attempts() {
    return attempts;
  }

  /** The last try, or null if none was made. */
  public Attempt lastAttempt() {
    return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
  }

  /**
   * {@link Outcome#NOT_RUN} when no try of the command can have run, else {@link Outcome#UNKNOWN}.
   */
  public Outcome outcome() {
    return outcome;
  }

  /** True when a try may have run ({@link Outcome#UNKNOWN}); false when none can have. */
  public boolean mayHaveRun() {
    return outcome.mayHaveRun();
  }
}
