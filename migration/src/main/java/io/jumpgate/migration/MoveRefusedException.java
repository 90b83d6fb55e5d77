package io.jumpgate.migration;

/**
 * A {@link Mover} refused to start: another mover holds the migration lock (the message names its
 * owner and migration), the plan does not match the map (a shard is not led by its {@code from}
 * node, a node is unknown), or there is no record to resume or abort. Nothing was changed.
 *
 * <p>Immutable and safe to pass between threads.
 */
public final class MoveRefusedException extends MigrationException {

  private static final long serialVersionUID = 1L;

  public MoveRefusedException(String message) {
    super(message);
  }

  public MoveRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
