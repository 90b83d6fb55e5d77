package io.jumpgate.driver;

/**
 * What a failed try says about the command's fate, as a {@link RetryPolicy} sees it
 * (docs/driver.md, "Retries"). The server's own answers (WRONGTYPE, ERR, NOSCRIPT, ...) are no
 * failure class: they reach the caller unchanged and no policy is asked about them.
 *
 * <p>Immutable constants; safe on any thread.
 */
public enum FailureClass {
  /**
   * READONLY, MOVED, or the node left the map before the try reached it: the map moved; the try did
   * not run.
   */
  REDIRECT,
  /**
   * TRYAGAIN, LOADING, MASTERDOWN, CLUSTERDOWN, ASK, a full request queue, a closed connection: the
   * try was refused and did not run.
   */
  NOT_RUN,
  /**
   * Could not connect, not connected, NOAUTH, or the node is down and reconnecting in the
   * background: the try did not run.
   */
  NODE_DOWN,
  /** The deadline passed while the try waited for its answer: it may have run. */
  TIMEOUT,
  /** The deadline passed before the try was handed to its connection: it did not run. */
  EXPIRED_BEFORE_SEND,
  /**
   * The connection was lost after the try may have been written: it may have run (see {@link
   * RetryContext#tryMayHaveRun()}).
   */
  CONNECTION_LOST
}
