package io.jumpgate.driver;

import java.util.List;

/**
 * The client was closed while the command was between two tries (waiting for a backoff, a newer map
 * or a connection): no further try was sent. {@link #outcome()} says whether an earlier try may
 * have run.
 *
 * <p>Calls made after {@code close()} do not get this exception: they fail at once with {@link
 * IllegalStateException}. Immutable once thrown; {@link #attempts()} lists every try.
 */
public class ClientClosedException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param attempts every try, in order
   * @param outcome {@link Outcome#NOT_RUN} when no try can have run, else {@link Outcome#UNKNOWN}
   */
  public ClientClosedException(
      String message, String command, List<Attempt> attempts, Outcome outcome) {
    super(message, command, attempts, outcome, null);
  }
}
