package io.jumpgate.migration;

/**
 * Events of a {@link Mover} run, for a progress display or a test. Every method has an empty
 * default, so new events never break an implementation.
 *
 * <p>Called on the thread that runs {@link Mover#move} (or {@code resume}), between steps, never
 * while shards are frozen: a slow listener slows the migration, not the clients. It may call {@link
 * Mover#cancel()}; it must not throw.
 */
public interface MoveListener {

  /** The run entered {@code phase}. */
  default void phaseStarted(MovePhase phase) {}

  /** A cutover attempt ended (cut over or given up). */
  default void groupFinished(GroupOutcome outcome) {}
}
