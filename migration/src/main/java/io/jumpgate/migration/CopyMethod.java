package io.jumpgate.migration;

/**
 * How a batch of keys goes from the source to the target.
 *
 * <p>{@link #MIGRATE} is the default: the source pushes the batch straight to the target in one
 * command, and the mover only sends the key names, so it is the faster of the two (see {@link
 * ShardCopier} for the figures).
 */
public enum CopyMethod {
  /**
   * {@code MIGRATE host port "" 0 timeout COPY REPLACE [AUTH2 user password] KEYS k1 .. kN} on the
   * source: the source connects to the target itself. Needs the source to reach the target at the
   * address given to the mover.
   */
  MIGRATE,
  /**
   * {@code DUMP} and {@code PTTL} on the source, then {@code RESTORE key ttl value REPLACE} on the
   * target: every value passes through the mover. For servers that cannot reach each other.
   */
  DUMP_RESTORE
}
