package io.jumpgate.driver.internal;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What a failure says about a command's fate, which decides whether it may be sent again
 * (architecture's retry rules).
 */
public enum FailureKind {
  /** READONLY or a MOVED: the map moved; not run. Wait for a newer topology (or follow MOVED). */
  REDIRECT(true),
  /** TRYAGAIN, LOADING, MASTERDOWN, CLUSTERDOWN, ASK, a full request queue: not run; back off. */
  NOT_RUN(true),
  /**
   * Could not connect, not connected so the command was refused, or NOAUTH (connected without the
   * credentials the node wants): not run.
   */
  NODE_DOWN(true),
  /** The deadline passed while waiting for the answer: the command may have run. */
  TIMEOUT(false),
  /** The connection broke after the command may have been written: it may have run. */
  UNKNOWN(false),
  /** The server's own answer (WRONGTYPE, ERR, NOSCRIPT, ...): returned to the caller as it is. */
  SERVER_ANSWER(true);

  private final boolean provablyNotRun;

  FailureKind(boolean provablyNotRun) {
    this.provablyNotRun = provablyNotRun;
  }

  /** True when the server did not run the command, so sending it again is always safe. */
  public boolean provablyNotRun() {
    return provablyNotRun;
  }

  /** Classifies a failure from Lettuce or from connecting. */
  public static FailureKind of(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof RedisCommandTimeoutException) {
      return TIMEOUT;
    }
    if (cause instanceof RedisCommandExecutionException) {
      String message = cause.getMessage() == null ? "" : cause.getMessage();
      if (message.startsWith("READONLY") || message.startsWith("MOVED")) {
        return REDIRECT;
      }
      if (message.startsWith("NOAUTH")) {
        // The connection is not authenticated (no credentials given): not run, node unusable.
        return NODE_DOWN;
      }
      if (message.startsWith("TRYAGAIN")
          || message.startsWith("LOADING")
          || message.startsWith("MASTERDOWN")
          || message.startsWith("CLUSTERDOWN")
          || message.startsWith("ASK")) {
        return NOT_RUN;
      }
      return SERVER_ANSWER;
    }
    if (cause instanceof RedisConnectionException || cause instanceof ConnectException) {
      return NODE_DOWN;
    }
    String message = cause.getMessage() == null ? "" : cause.getMessage();
    if (message.startsWith("Currently not connected")) {
      return NODE_DOWN;
    }
    if (message.startsWith("Request queue size exceeded")) {
      return NOT_RUN;
    }
    return UNKNOWN;
  }

  /** The node a {@code MOVED <slot> <host:port>} answer names, or null. */
  public static String movedAddress(Throwable error) {
    Throwable cause = unwrap(error);
    String message = cause.getMessage();
    if (message == null || !message.startsWith("MOVED ")) {
      return null;
    }
    String[] parts = message.split(" ");
    return parts.length >= 3 ? parts[2] : null;
  }

  static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
