package io.jumpgate.driver.internal;

import io.jumpgate.driver.FailureClass;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What a try's failure says about the command's fate, which decides whether it may be sent again
 * (docs/driver.md, retry rules). {@link #notRun()} kinds prove that the server did not run the try
 * whatever else is known; for the others, {@link #tryMayHaveRun} also asks whether the try's bytes
 * were ever produced for the socket.
 */
public enum FailureKind {
  /**
   * READONLY or a MOVED, or the node left the map before the try reached it: the map moved; not
   * run. Wait for a newer topology (or follow MOVED).
   */
  REDIRECT(true, FailureClass.REDIRECT),
  /**
   * TRYAGAIN, LOADING, MASTERDOWN, CLUSTERDOWN, ASK, a full request queue, a connection already
   * closed: not run; back off.
   */
  NOT_RUN(true, FailureClass.NOT_RUN),
  /**
   * Could not connect, not connected so the command was refused, or NOAUTH (connected without the
   * credentials the node wants): not run.
   */
  NODE_DOWN(true, FailureClass.NODE_DOWN),
  /** The deadline passed while waiting for the answer: the command may have run. */
  TIMEOUT(false, FailureClass.TIMEOUT),
  /** The deadline passed before the try was handed to Lettuce: not run. */
  EXPIRED_BEFORE_SEND(true, FailureClass.EXPIRED_BEFORE_SEND),
  /** The connection broke after the command may have been written: it may have run. */
  UNKNOWN(false, FailureClass.CONNECTION_LOST),
  /** The server's own answer (WRONGTYPE, ERR, NOSCRIPT, ...): returned to the caller as it is. */
  SERVER_ANSWER(true, null);

  private final boolean notRun;
  private final FailureClass failureClass;

  FailureKind(boolean notRun, FailureClass failureClass) {
    this.notRun = notRun;
    this.failureClass = failureClass;
  }

  /**
   * The class a {@link io.jumpgate.driver.RetryPolicy} sees; null for {@link #SERVER_ANSWER}, which
   * no policy is asked about.
   */
  public FailureClass failureClass() {
    return failureClass;
  }

  /** True when a failure of this kind proves that the server did not run the try. */
  public boolean notRun() {
    return notRun;
  }

  /**
   * Whether a failed try may have run on the server: never for {@link #notRun()} kinds; always for
   * a timeout (its bytes may still be on their way); otherwise only if its bytes were produced for
   * the socket ({@code encoded}). A try that failed before it was encoded (refused by a closed or
   * full connection, say) never reached the server.
   */
  public static boolean tryMayHaveRun(FailureKind kind, boolean encoded) {
    if (kind.notRun) {
      return false;
    }
    return kind == TIMEOUT || encoded;
  }

  /** Classifies a failure from Lettuce or from connecting. */
  public static FailureKind of(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof SendWaitExpiredException) {
      return EXPIRED_BEFORE_SEND;
    }
    if (cause instanceof NodeRetiredException) {
      return REDIRECT;
    }
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
    if (message.startsWith("Request queue size exceeded")
        || message.startsWith("Internal stack size exceeded")
        || message.startsWith("Command buffer size exceeded")
        || message.equals("Connection is closed")) {
      // Lettuce refuses the command before it is written: its queue is full, or the connection
      // was closed by the driver (a node that left the map).
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
