package io.jumpgate.driver;

/**
 * What a {@link RetryPolicy} decides after a failed try. Whatever the verdict, no try is sent after
 * the command's deadline: a retry that would start after it fails the command with {@link
 * CommandTimeoutException}.
 *
 * <p>Immutable constants; safe on any thread.
 */
public enum RetryVerdict {
  /** Try again at once, on the node the map in force names. */
  RETRY_NOW,
  /**
   * Try again after the backoff of the retry options ({@link RetryContext#backoffNanos()}), on the
   * node the map in force names then.
   */
  RETRY_AFTER_BACKOFF,
  /**
   * Try again on a map newer than the one the failed try was routed with: at once if one is already
   * in force, else after one arrives or the retry options' topology wait ends (bounded by the
   * deadline), whichever comes first.
   */
  RETRY_ON_NEWER_MAP,
  /**
   * Try again at once on another node: the one a {@code MOVED host:port} answer named, when the map
   * in force knows it ({@link RetryContext#movedToKnownNode()}); otherwise as {@link
   * #RETRY_ON_NEWER_MAP}.
   */
  RETRY_ON_MOVED_NODE,
  /** No further try: the command fails with the last failure and its outcome. */
  GIVE_UP
}
