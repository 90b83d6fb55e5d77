package io.jumpgate.driver;

import java.util.List;

/**
 * The node that should serve the command could not be reached (connection refused, not connected,
 * down for a reconnect backoff) on the last allowed try. The outcome is {@link Outcome#NOT_RUN}
 * unless an earlier try may have run (it was written before the node went away): then it is {@link
 * Outcome#UNKNOWN}.
 *
 * <p>Immutable once thrown; {@link #attempts()} lists every try.
 */
public class NodeUnavailableException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param attempts every try, in order
   * @param outcome {@link Outcome#NOT_RUN} when no try can have run, else {@link Outcome#UNKNOWN}
   * @param cause the last underlying failure
   */
  public NodeUnavailableException(
      String message, String command, List<Attempt> attempts, Outcome outcome, Throwable cause) {
    super(message, command, attempts, outcome, cause);
  }
}
