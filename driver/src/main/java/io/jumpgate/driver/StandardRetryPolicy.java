package io.jumpgate.driver;

/**
 * The retry rules of docs/driver.md as one pure function ({@link RetryPolicy#standard()}). No
 * state, no clock, no randomness of its own: the context carries the time left and the backoff
 * drawn, so every rule is tested by a table (RetryPolicyTest).
 *
 * <p>Thread-safe (stateless); never blocks, allocates nothing.
 */
final class StandardRetryPolicy implements RetryPolicy {

  static final StandardRetryPolicy INSTANCE = new StandardRetryPolicy();

  private StandardRetryPolicy() {}

  @Override
  public RetryVerdict decide(RetryContext context) {
    if (context.tryMayHaveRun()
        && !mayRunAgain(context.commandClass(), context.acceptSecondRunReplies())) {
      return RetryVerdict.GIVE_UP;
    }
    if (context.attempt() >= context.maxAttempts() || context.remainingNanos() <= 0) {
      return RetryVerdict.GIVE_UP;
    }
    if (context.failure() == FailureClass.REDIRECT) {
      return context.movedToKnownNode()
          ? RetryVerdict.RETRY_ON_MOVED_NODE
          : RetryVerdict.RETRY_ON_NEWER_MAP;
    }
    if (context.backoffNanos() >= context.remainingNanos()) {
      return RetryVerdict.GIVE_UP;
    }
    return RetryVerdict.RETRY_AFTER_BACKOFF;
  }

  /** Whether a command of this class may be sent again after a try that may have run. */
  private static boolean mayRunAgain(
      CommandRetryClass commandClass, boolean acceptSecondRunReplies) {
    return switch (commandClass) {
      case READ_ONLY, IDEMPOTENT_WRITE -> true;
      case SAME_STATE_WRITE -> acceptSecondRunReplies;
      case NON_IDEMPOTENT_WRITE -> false;
    };
  }

  @Override
  public String toString() {
    return "RetryPolicy.standard()";
  }
}
