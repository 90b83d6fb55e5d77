package io.jumpgate.driver.internal;

import io.lettuce.core.RedisCommandTimeoutException;

/**
 * The command's deadline passed while its try waited to be sent (for the node's first connection):
 * the try was never handed to Lettuce, so the server did not see it. No stack trace.
 */
public final class SendWaitExpiredException extends RedisCommandTimeoutException {

  private static final long serialVersionUID = 1L;

  SendWaitExpiredException(String message) {
    super(message);
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
