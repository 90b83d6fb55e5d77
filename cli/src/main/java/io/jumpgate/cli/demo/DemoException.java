package io.jumpgate.cli.demo;

import io.jumpgate.spi.JumpgateException;

/**
 * A failure of {@code jumpgate demo} that the user can act on: a binary is missing, a process did
 * not start, the workload failed. The CLI prints its message as the one-line error (exit code 1);
 * {@link #details()}, when there are any (the end of a process's log), are printed before it.
 *
 * <p>Immutable once thrown.
 */
final class DemoException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  private final String details;

  DemoException(String message) {
    this(message, "", null);
  }

  DemoException(String message, Throwable cause) {
    this(message, "", cause);
  }

  /**
   * @param message one line: what failed, naming the process or value at fault
   * @param details lines to print before the message (e.g. a log tail), or empty
   * @param cause the underlying failure, or null
   */
  DemoException(String message, String details, Throwable cause) {
    super(message, cause);
    this.details = details == null ? "" : details;
  }

  /** Lines that explain the failure (a log tail), or empty. */
  String details() {
    return details;
  }
}
