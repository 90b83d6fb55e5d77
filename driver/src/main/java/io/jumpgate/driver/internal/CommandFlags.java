package io.jumpgate.driver.internal;

/**
 * What the router needs to know about a command, as bit flags (no allocation per command).
 *
 * <ul>
 *   <li>{@link #WRITE}: goes to the leader whatever the read policy.
 *   <li>{@link #IDEMPOTENT}: running it twice leaves the same state and gives an equally valid
 *       answer, so it may be sent again when its first fate is unknown (a timeout, a connection
 *       lost after writing). Commands without the flag (INCR, LPUSH, APPEND, SET ... GET/NX/XX,
 *       EVAL, ...) are only ever retried when the server provably did not run them.
 * </ul>
 */
public final class CommandFlags {

  public static final int READ = 0;
  public static final int WRITE = 1;
  public static final int IDEMPOTENT = 2;

  /** A read that may be retried freely. */
  public static final int IDEMPOTENT_READ = READ | IDEMPOTENT;

  /** A write that may be retried freely (SET without options, DEL, EXPIRE, HSET, SADD, ...). */
  public static final int IDEMPOTENT_WRITE = WRITE | IDEMPOTENT;

  private CommandFlags() {}

  public static boolean isWrite(int flags) {
    return (flags & WRITE) != 0;
  }

  public static boolean isIdempotent(int flags) {
    return (flags & IDEMPOTENT) != 0;
  }
}
