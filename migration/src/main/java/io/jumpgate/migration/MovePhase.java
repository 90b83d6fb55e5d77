package io.jumpgate.migration;

/** Where a {@link Mover} is with a migration. */
public enum MovePhase {
  /** Not started. */
  NOT_STARTED,
  /** Taking the lock, switching on change capture (not offline), writing the record, marking. */
  PREPARE,
  /** The SCAN pass and catch-up on every (source, target) pair. */
  COPY,
  /** Freezing, acknowledging and cutting over one group of shards after another. */
  CUTOVER,
  /** Waiting for the grace period, then removing the moved keys from the sources. */
  CLEANUP,
  /** Finished: the record is deleted and the lock released. */
  DONE,
  /** Stopped by {@link Mover#cancel()}: the record stays, a later run resumes it. */
  CANCELLED,
  /** Stopped by an error: the record stays, a later run resumes it. */
  FAILED
}
