package io.jumpgate.driver;

import io.jumpgate.spi.JumpgateException;
import java.util.List;

/**
 * A command failed in the driver: it could not be delivered, its answer did not come in time, or
 * every allowed try failed. Server errors that are the command's own answer (WRONGTYPE, ERR ...)
 * are not wrapped: they reach the caller as Lettuce's {@code RedisCommandExecutionException}.
 *
 * <p>{@link #outcomeKnown()} tells whether the server provably did not run the command. When it is
 * false (a timeout, a connection lost after the command was written), a non-idempotent command such
 * as INCR may have run: the driver never sends such a command again on its own.
 *
 * <p>Immutable once thrown.
 */
public class CommandFailedException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  private final String command;
  private final transient List<Attempt> attempts;
  private final boolean outcomeKnown;

  /**
   * @param message what went wrong
   * @param command the command's name, e.g. {@code INCR}
   * @param attempts every try, in order; copied
   * @param outcomeKnown true when the server provably did not run the command
   * @param cause the last underlying failure
   */
  public CommandFailedException(
      String message,
      String command,
      List<Attempt> attempts,
      boolean outcomeKnown,
      Throwable cause) {
    super(message + describe(attempts), cause);
    this.command = command;
    this.attempts = List.copyOf(attempts);
    this.outcomeKnown = outcomeKnown;
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

  /** True when the server provably did not run the command; false when it may have. */
  public boolean outcomeKnown() {
    return outcomeKnown;
  }
}
