package io.jumpgate.driver;

import java.util.List;

/**
 * The node that should serve the command could not be reached (connection refused, not connected),
 * on every allowed try. The server did not run the command.
 *
 * <p>Immutable once thrown; {@link #attempts()} lists every try.
 */
public class NodeUnavailableException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param attempts every try, in order
   * @param outcomeKnown true when the server provably did not run the command
   * @param cause the last underlying failure
   */
  public NodeUnavailableException(
      String message,
      String command,
      List<Attempt> attempts,
      boolean outcomeKnown,
      Throwable cause) {
    super(message, command, attempts, outcomeKnown, cause);
  }
}
