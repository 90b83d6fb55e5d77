package io.jumpgate.driver.internal;

/**
 * The retry rules of docs/driver.md as one pure function: given what a failed try says and where
 * the command stands, what happens next. No state, no clock, no randomness of its own: the caller
 * passes the time, the deadline and the backoff it drew, so every rule is tested by a table.
 *
 * <p>Thread-safe (stateless); runs on event loops and the scheduler, never blocks.
 */
final class RetryRules {

  /** What happens after a failed try. */
  enum Verdict {
    /** The server's own answer (WRONGTYPE, ERR, ...): the caller gets it as it is. */
    RETURN_SERVER_ANSWER,
    /** Try again at once on the node a MOVED named. */
    RETRY_ON_MOVED_NODE,
    /** Try again at once where the map in force says: it is newer than the try's. */
    RETRY_ON_NEWER_MAP,
    /** Wait (bounded) for a newer map, then try again where it says. */
    WAIT_FOR_NEWER_MAP,
    /** Try again after the backoff. */
    RETRY_AFTER_BACKOFF,
    /** No further try: the command fails. */
    GIVE_UP
  }

  private RetryRules() {}

  /**
   * @param kind what the failure was
   * @param tryMayHaveRun whether the failed try may have run ({@link FailureKind#tryMayHaveRun})
   * @param retryAfterUnknownOutcome whether this command may be sent again after a try that may
   *     have run (its class and the retry options)
   * @param attempt the failed try's number, 1 for the first
   * @param maxAttempts the most tries allowed, the first included
   * @param nowNanos now
   * @param deadlineNanos the command's deadline
   * @param backoffNanos the wait before the next try, if it backs off
   * @param movedToKnownNode the failure is a MOVED that names a node of the map in force
   * @param newerMapInForce the map in force is newer than the one the try was routed with
   */
  static Verdict decide(
      FailureKind kind,
      boolean tryMayHaveRun,
      boolean retryAfterUnknownOutcome,
      int attempt,
      int maxAttempts,
      long nowNanos,
      long deadlineNanos,
      long backoffNanos,
      boolean movedToKnownNode,
      boolean newerMapInForce) {
    if (kind == FailureKind.SERVER_ANSWER) {
      return Verdict.RETURN_SERVER_ANSWER;
    }
    if (tryMayHaveRun && !retryAfterUnknownOutcome) {
      return Verdict.GIVE_UP;
    }
    if (attempt >= maxAttempts || nowNanos - deadlineNanos >= 0) {
      return Verdict.GIVE_UP;
    }
    if (kind == FailureKind.REDIRECT) {
      if (movedToKnownNode) {
        return Verdict.RETRY_ON_MOVED_NODE;
      }
      return newerMapInForce ? Verdict.RETRY_ON_NEWER_MAP : Verdict.WAIT_FOR_NEWER_MAP;
    }
    if (backoffNanos >= deadlineNanos - nowNanos) {
      return Verdict.GIVE_UP;
    }
    return Verdict.RETRY_AFTER_BACKOFF;
  }
}
