package io.jumpgate.migration.internal;

import io.jumpgate.topology.ClientRegistrySnapshot;
import io.jumpgate.topology.RegisteredClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The contract's check of the source before a cutover: {@code CLIENT LIST}, and every connection
 * named {@code jumpgate:<client-id>} whose client has no registration, or one whose {@code drained}
 * is below the freeze revision, blocks the cutover (a client cut off from etcd with a stale map
 * would otherwise write to the old leader unseen). Connections with other names are reported only.
 *
 * <p>Not thread-safe: used by the mover's thread.
 */
public final class SourceConnectionCheck {

  /**
   * What the check found.
   *
   * @param blockers one line per connection that blocks the cutover
   * @param others distinct names of connections that are not Jumpgate clients (unnamed ones are
   *     counted as {@code <unnamed> xN})
   */
  public record Result(List<String> blockers, List<String> others) {}

  private final StatefulRedisConnection<byte[], byte[]> connection;
  private final String sourceName;
  private final Duration timeout;

  public SourceConnectionCheck(
      StatefulRedisConnection<byte[], byte[]> connection, String sourceName, Duration timeout) {
    this.connection = connection;
    this.sourceName = sourceName;
    this.timeout = timeout;
  }

  /** Runs CLIENT LIST and matches it against {@code registry}; blocks up to the timeout. */
  public Result check(ClientRegistrySnapshot registry, long frozenAt, boolean force) {
    String list =
        Await.result(connection.async().clientList(), timeout, "CLIENT LIST on " + sourceName);
    return match(list, registry, frozenAt, force);
  }

  /** Matches a {@code CLIENT LIST} reply against a registry. */
  public static Result match(
      String clientList, ClientRegistrySnapshot registry, long frozenAt, boolean force) {
    List<String> blockers = new ArrayList<>();
    TreeSet<String> others = new TreeSet<>();
    int unnamed = 0;
    for (String line : clientList.split("\r?\n")) {
      if (line.isBlank()) {
        continue;
      }
      String name = field(line, "name");
      String address = field(line, "addr");
      Optional<String> clientId = RegisteredClient.clientIdOfConnectionName(name);
      if (clientId.isEmpty()) {
        if (name.isEmpty()) {
          unnamed++;
        } else {
          others.add(name);
        }
        continue;
      }
      RegisteredClient registered = registry.clients().get(clientId.get());
      if (registered == null) {
        blockers.add(
            "connection "
                + address
                + " named '"
                + name
                + "' belongs to no registered client (cut off from etcd?)");
      } else if (!registered.hasDrained(frozenAt)
          && !(force && registered.drained().isEmpty() && registered.invalidReason() == null)) {
        blockers.add(
            "connection "
                + address
                + " named '"
                + name
                + "': "
                + RegistryTracker.describe(registered, frozenAt));
      }
    }
    List<String> reported = new ArrayList<>(others);
    if (unnamed > 0) {
      reported.add("<unnamed> x" + unnamed);
    }
    return new Result(blockers, reported);
  }

  private static String field(String line, String name) {
    String prefix = name + "=";
    for (String part : line.split(" ")) {
      if (part.startsWith(prefix)) {
        return part.substring(prefix.length());
      }
    }
    return "";
  }
}
