package io.jumpgate.driver;

import java.util.List;

/**
 * The command's shard was frozen for a migration's cutover, and the client held the command without
 * sending it until a bound ran out: the freeze lasted longer than {@code freezeMaxWait}, or {@code
 * freezeMaxRequests} commands were held already. The command was never sent to the frozen shard;
 * sending it again later is safe unless {@link #outcome()} says an earlier try may have run ({@link
 * Outcome#UNKNOWN}). Retryable: a freeze lasts milliseconds when nothing goes wrong.
 *
 * <p>Immutable once thrown; {@link #attempts()} lists every try.
 */
public class ShardFrozenException extends CommandFailedException {

  private static final long serialVersionUID = 1L;

  private final int shard;

  /**
   * @param message what went wrong
   * @param command the command's name
   * @param shard the frozen shard
   * @param attempts every try, in order
   * @param outcome {@link Outcome#NOT_RUN} unless an earlier try may have run
   */
  public ShardFrozenException(
      String message, String command, int shard, List<Attempt> attempts, Outcome outcome) {
    super(message, command, attempts, outcome, null);
    this.shard = shard;
  }

  /** The frozen shard the command was held for. */
  public int shard() {
    return shard;
  }
}
