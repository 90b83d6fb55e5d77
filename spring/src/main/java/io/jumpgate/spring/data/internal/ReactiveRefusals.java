package io.jumpgate.spring.data.internal;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/** The errors for commands Jumpgate's reactive Spring Data Redis connection refuses. Stateless. */
final class ReactiveRefusals {

  private ReactiveRefusals() {}

  /** A command this connection does not send (yet): nothing was sent. */
  static InvalidDataAccessApiUsageException unsupported(String command) {
    return new InvalidDataAccessApiUsageException(
        command
            + " is not supported by Jumpgate's ReactiveRedisConnection (nothing was sent); use the"
            + " JumpgateReactiveCommands bean, or its dispatch(routingKey, ...) for a command of one"
            + " key (see docs/spring.md)");
  }
}
