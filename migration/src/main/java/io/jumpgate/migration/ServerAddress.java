package io.jumpgate.migration;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a RESP server listens and how to log in to it.
 *
 * <p>With {@link CopyMethod#MIGRATE} the source connects to the target at this address with these
 * credentials ({@code AUTH2 username password}, or {@code AUTH password} without a username), so it
 * must be the target's address as the source sees it. Immutable; {@link #toString()} never shows
 * the password.
 *
 * @param host host name or IP address, not blank
 * @param port 1 to 65535
 * @param username ACL user, or empty for the default user
 * @param password password, or empty for none
 */
public record ServerAddress(
    String host, int port, Optional<String> username, Optional<String> password) {

  public ServerAddress {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    if (host.isBlank()) {
      throw new IllegalArgumentException("host must not be blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
    }
    if (username.isPresent() && password.isEmpty()) {
      throw new IllegalArgumentException(
          "username " + username.get() + " is given without a password");
    }
  }

  /** A server without authentication. */
  public static ServerAddress of(String host, int port) {
    return new ServerAddress(host, port, Optional.empty(), Optional.empty());
  }

  /** The same server, logged in to as {@code username} with {@code password}. */
  public ServerAddress withCredentials(String username, String password) {
    return new ServerAddress(
        host,
        port,
        Optional.of(username),
        Optional.of(Objects.requireNonNull(password, "password")));
  }

  /** The same server, with a password for the default user. */
  public ServerAddress withPassword(String password) {
    return new ServerAddress(
        host, port, Optional.empty(), Optional.of(Objects.requireNonNull(password, "password")));
  }

  @Override
  public String toString() {
    return username.map(user -> user + "@").orElse("") + host + ":" + port;
  }
}
