package io.jumpgate.driver;

/**
 * What a second run of a command would do, which decides whether it may be sent again after a try
 * whose outcome is unknown (docs/driver.md, "After an unknown outcome: four classes of commands").
 * Where a command's options change its class (SET with NX, say), the class is the one of this call.
 *
 * <p>Immutable constants; safe on any thread.
 */
public enum CommandRetryClass {
  /** Changes nothing (GET, MGET, EXISTS, HGETALL, SCAN, ...): sent again by default. */
  READ_ONLY,
  /**
   * A second run leaves the same state and gives an equally valid reply (SET without conditions,
   * SETEX, MSET, SETRANGE, TOUCH, FLUSHDB, ...): sent again by default.
   */
  IDEMPOTENT_WRITE,
  /**
   * A second run leaves the same state but answers differently (SADD, HDEL, DEL, EXPIRE, SETNX, SET
   * NX, GETDEL, ...): sent again by default only with {@link
   * RetryOptions.Builder#acceptSecondRunReplies(boolean)}.
   */
  SAME_STATE_WRITE,
  /**
   * A second run changes the state again (INCR, LPUSH, APPEND, EVAL, dispatched commands, SET with
   * an option the driver does not know, ...): never sent again by default.
   */
  NON_IDEMPOTENT_WRITE
}
