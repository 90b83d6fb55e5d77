package io.jumpgate.testkit;

/**
 * A local cluster could not start, or a fault could not be applied: a binary is missing, a process
 * exited or did not become ready in time (the message then ends with the last lines of its log), or
 * writing the map failed.
 *
 * <p>Unchecked. Immutable and thread-safe.
 */
public class LocalClusterException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** An error with a message that names what went wrong. */
  public LocalClusterException(String message) {
    super(message);
  }

  /** An error with a message and the exception that caused it. */
  public LocalClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
