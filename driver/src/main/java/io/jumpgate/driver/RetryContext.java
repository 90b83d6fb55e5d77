package io.jumpgate.driver;

import java.util.Objects;

/**
 * Everything a {@link RetryPolicy} may know about a failed try: the command's class, what the
 * failure says, how many tries were made, and how much of the command's single deadline is left.
 * Times are in nanoseconds on the driver's clock.
 *
 * <p>Immutable; safe on any thread. Built by the driver on the failure path only (never for a
 * command that succeeds at once).
 *
 * @param commandName the command's name as sent ({@code INCR}, {@code GET}, ...)
 * @param commandClass what a second run of this call would do
 * @param failure what the failed try's failure says
 * @param tryMayHaveRun whether the failed try may have run on the server: false when it provably
 *     did not (refused before it was written, a redirect, a node down)
 * @param attempt the failed try's number, 1 for the first
 * @param maxAttempts the most tries the retry options allow, the first included
 * @param acceptSecondRunReplies the retry options' {@link RetryOptions#acceptSecondRunReplies()}
 * @param elapsedNanos time since the command started
 * @param remainingNanos time left until the command's deadline; zero or less when it has passed
 * @param backoffNanos the wait before the next try if the verdict is {@link
 *     RetryVerdict#RETRY_AFTER_BACKOFF} (drawn from the retry options, with jitter)
 * @param movedToKnownNode the failure is a MOVED that names a node of the map in force
 */
public record RetryContext(
    String commandName,
    CommandRetryClass commandClass,
    FailureClass failure,
    boolean tryMayHaveRun,
    int attempt,
    int maxAttempts,
    boolean acceptSecondRunReplies,
    long elapsedNanos,
    long remainingNanos,
    long backoffNanos,
    boolean movedToKnownNode) {

  /**
   * @throws NullPointerException naming the missing component
   * @throws IllegalArgumentException naming the component when an attempt count is below 1 or a
   *     time is negative where it cannot be
   */
  public RetryContext {
    Objects.requireNonNull(commandName, "commandName");
    Objects.requireNonNull(commandClass, "commandClass");
    Objects.requireNonNull(failure, "failure");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be at least 1, got " + attempt);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
    }
    if (elapsedNanos < 0) {
      throw new IllegalArgumentException("elapsedNanos must not be negative, got " + elapsedNanos);
    }
    if (backoffNanos < 0) {
      throw new IllegalArgumentException("backoffNanos must not be negative, got " + backoffNanos);
    }
  }
}
