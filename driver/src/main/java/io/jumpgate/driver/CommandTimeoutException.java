package io.jumpgate.driver;

import java.util.List;

/**
 * The command's deadline passed before an answer came. The outcome is {@link Outcome#UNKNOWN} (the
 * command may have run, or may still run) unless no try of it was ever written: then it is {@link
 * Outcome#NOT_RUN}.
 *
 * <p>Immutable once thrown; {@link #attempts()} lists every try.
 */
public class CommandTimeoutException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param attempts every try, in order
   * @param outcome {@link Outcome#NOT_RUN} when no try can have run, else {@link Outcome#UNKNOWN}
   * @param cause the last underlying failure
   */
  public CommandTimeoutException(
      String message, String command, List<Attempt> attempts, Outcome outcome, Throwable cause) {
    super(message, command, attempts, outcome, cause);
  }
}
