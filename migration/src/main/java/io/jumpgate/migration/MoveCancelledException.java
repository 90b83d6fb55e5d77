package io.jumpgate.migration;

/**
 * {@link Mover#cancel()} stopped a run between two steps: no shard is frozen, the copiers are
 * closed (the sources' {@code notify-keyspace-events} restored), the lock is released and the
 * record stays, so that a later {@link Mover#resume} finishes the migration (or {@link Mover#abort}
 * undoes it).
 *
 * <p>Immutable and safe to pass between threads.
 */
public final class MoveCancelledException extends MigrationException {

  private static final long serialVersionUID = 1L;

  public MoveCancelledException(String message) {
    super(message);
  }
}
