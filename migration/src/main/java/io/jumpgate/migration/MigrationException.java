package io.jumpgate.migration;

import io.jumpgate.spi.JumpgateException;

/**
 * A phase of the copy failed: a command was refused, timed out, or a connection broke. The shards
 * being moved have not been cut over by the engine; the caller copies them again from scratch or
 * gives up.
 *
 * <p>Immutable and safe to pass between threads.
 */
public class MigrationException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  public MigrationException(String message) {
    super(message);
  }

  public MigrationException(String message, Throwable cause) {
    super(message, cause);
  }
}
