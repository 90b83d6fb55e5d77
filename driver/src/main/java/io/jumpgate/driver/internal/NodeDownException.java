package io.jumpgate.driver.internal;

import io.lettuce.core.RedisConnectionException;

/**
 * A try was not sent because its node is down: the last connect to it failed and the next one is
 * being made in the background. The server did not see the try. No stack trace: it is expected and
 * frequent while a node is down; the connect failure it names is the cause.
 */
public final class NodeDownException extends RedisConnectionException {

  private static final long serialVersionUID = 1L;

  NodeDownException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
