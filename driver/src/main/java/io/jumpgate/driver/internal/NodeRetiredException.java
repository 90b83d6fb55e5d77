package io.jumpgate.driver.internal;

import io.lettuce.core.RedisException;

/**
 * A try was not sent because its node left the map while the try was on its way to it: the map
 * moved, so the next try goes where the newer map says. Never reaches the caller as it is. No stack
 * trace: it is control flow.
 */
public final class NodeRetiredException extends RedisException {

  private static final long serialVersionUID = 1L;

  NodeRetiredException(String message) {
    super(message);
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
