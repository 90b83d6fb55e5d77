package io.jumpgate.driver;

/**
 * Decides what happens after a failed try of a command: try again now, after a backoff, on a newer
 * map, on the node a MOVED named, or give up. A pure function of the {@link RetryContext}; set one
 * with {@link JumpgateOptions.Builder#retryPolicy(RetryPolicy)}. The default, {@link #standard()},
 * is the rule set of docs/driver.md ("Retries").
 *
 * <p><b>Threading:</b> called on Netty event-loop threads and the driver's retry scheduler, once
 * per failed try, possibly from many threads at once. An implementation must be thread-safe, must
 * never block (no I/O, no locks held for long, no sleeping) and must be fast: it delays every retry
 * and, while it runs, every other command of that event loop. An exception or a {@code null} from
 * it gives up (the command fails with its last failure); the exception is logged.
 *
 * <p><b>What a policy cannot change:</b> the server's own answers (WRONGTYPE, ERR, ...) reach the
 * caller unchanged without asking it; no try starts after the command's deadline; waits for a newer
 * map are bounded by the retry options' topology wait. A policy that sends a command again after a
 * try that {@link RetryContext#tryMayHaveRun() may have run}, when its {@link
 * RetryContext#commandClass() class} is {@link CommandRetryClass#NON_IDEMPOTENT_WRITE} (INCR,
 * LPUSH, EVAL, ...), may run it twice: the standard policy never does.
 *
 * <p>A policy that wants to change one rule can delegate the rest:
 *
 * <pre>{@code
 * RetryPolicy noBackoffRetries = context ->
 *     context.failure() == FailureClass.NOT_RUN
 *         ? RetryVerdict.GIVE_UP
 *         : RetryPolicy.standard().decide(context);
 * }</pre>
 */
@FunctionalInterface
public interface RetryPolicy {

  /**
   * What follows the failed try described by {@code context}.
   *
   * @param context the failed try, never null
   * @return the verdict; null counts as {@link RetryVerdict#GIVE_UP}
   */
  RetryVerdict decide(RetryContext context);

  /**
   * The rules of docs/driver.md, the default: a try that may have run is sent again only for a
   * command whose class allows it (reads and idempotent writes; same-state writes with {@code
   * acceptSecondRunReplies}); none after the last attempt or past the deadline; READONLY and MOVED
   * go to the node a MOVED named when the map knows it, else to a newer map; other failures back
   * off unless the backoff would reach the deadline. Stateless and thread-safe.
   */
  static RetryPolicy standard() {
    return StandardRetryPolicy.INSTANCE;
  }
}
