package io.jumpgate.driver;

import java.util.List;

/**
 * Every allowed try failed with an error that permits retrying (READONLY, MOVED, TRYAGAIN, LOADING,
 * ...) or the command's fate became unknown and it may not be retried.
 *
 * <p>Immutable once thrown; {@link #attempts()} lists every try.
 */
public class RetriesExhaustedException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param attempts every try, in order
   * @param outcome {@link Outcome#NOT_RUN} when no try can have run, else {@link Outcome#UNKNOWN}
   * @param cause the last underlying failure
   */
  public RetriesExhaustedException(
      String message, String command, List<Attempt> attempts, Outcome outcome, Throwable cause) {
    super(message, command, attempts, outcome, cause);
  }
}
