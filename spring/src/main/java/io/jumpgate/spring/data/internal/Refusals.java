package io.jumpgate.spring.data.internal;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/** The errors for commands Jumpgate's Spring Data Redis connection refuses. Stateless. */
final class Refusals {

  private Refusals() {}

  /** A command this connection does not send (yet): nothing was sent. */
  static InvalidDataAccessApiUsageException unsupported(String command) {
    return new InvalidDataAccessApiUsageException(
        command
            + " is not supported by Jumpgate's RedisConnection (nothing was sent); use the"
            + " JumpgateCommands bean, or its dispatch(routingKey, ...) for a command of one key"
            + " (see docs/spring.md)");
  }

  /** A command that has no key to route it by, on a cluster of several shards. */
  static InvalidDataAccessApiUsageException noKey(String command, String why) {
    return new InvalidDataAccessApiUsageException(
        command + " cannot be routed by Jumpgate (nothing was sent): " + why);
  }
}
