package io.jumpgate.spi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One server of the cluster as the topology describes it: where to reach it and where it stands.
 *
 * <p>Immutable and thread-safe. Two nodes are equal when every field is equal, so a node whose
 * address changed is a different value with the same {@link #id()}.
 *
 * @param id the node id, {@code [A-Za-z0-9._-]{1,64}}
 * @param host host name or IP address, not blank
 * @param port TCP port, 1 to 65535
 * @param zone availability zone, or null when not set
 * @param tags free-form labels, never null (empty when not set); copied and sorted by key
 * @param tls whether the node expects TLS; default false
 */
public record Node(
    String id, String host, int port, String zone, Map<String, String> tags, boolean tls) {

  /** The node id syntax: 1 to 64 of letters, digits, dot, underscore and dash. */
  public static final Pattern ID_PATTERN = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /**
   * @throws IllegalArgumentException if the id, host or port is invalid (the message names it)
   */
  public Node {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(host, "host");
    if (!ID_PATTERN.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "node id must match " + ID_PATTERN.pattern() + ", was '" + id + "'");
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("host of node '" + id + "' must not be blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "port of node '" + id + "' must be between 1 and 65535, was " + port);
    }
    tags = tags == null || tags.isEmpty() ? Map.of() : Map.copyOf(new TreeMap<>(tags));
  }

  /** A node with no zone, no tags and no TLS. */
  public static Node of(String id, String host, int port) {
    return new Node(id, host, port, null, Map.of(), false);
  }

  /** The zone, when the topology sets one. */
  public Optional<String> zoneIfSet() {
    return Optional.ofNullable(zone);
  }

  /** {@code host:port}, with an IPv6 host in brackets. */
  public String address() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
