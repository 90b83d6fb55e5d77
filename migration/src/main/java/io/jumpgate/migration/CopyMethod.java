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
  DUMP_RESTORE,
  /**
   * One {@code EVAL} on the source that answers {@code DUMP} and {@code PTTL} of a whole batch,
   * then one {@code EVAL} on the target that runs {@code RESTORE ... REPLACE} of each key (and
   * {@code UNLINK} of the keys gone): every value passes through the mover, as with {@link
   * #DUMP_RESTORE}, but in two commands a batch. The source never waits for the target. Needs
   * {@code EVAL} (and {@code DUMP}, {@code PTTL}, {@code RESTORE}, {@code UNLINK} from a script)
   * for the mover's user on both servers.
   */
  SCRIPT
}
