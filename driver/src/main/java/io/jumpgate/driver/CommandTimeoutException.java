package io.jumpgate.driver;

import java.util.List;

/**
 * The command's deadline passed before an answer came. The command may have run (outcomeKnown is
 * false unless no try was ever written).
 *
 * <p>Immutable once thrown; {@link #attempts()} lists every try.
 */
public class CommandTimeoutException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param attempts every try, in order
   * @param outcomeKnown true when the server provably did not run the command
   * @param cause the last underlying failure
   */
  public CommandTimeoutException(
      String message,
      String command,
      List<Attempt> attempts,
      boolean outcomeKnown,
      Throwable cause) {
    super(message, command, attempts, outcomeKnown, cause);
  }
}
