package io.jumpgate.cli;

import io.jumpgate.spi.Node;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Parses the node specs of the admin verbs: {@code id=host:port[@zone]}, and lists of them
 * separated by commas ({@code a=10.0.0.5:6379@az1,b=10.0.0.6:6379@az2}).
 *
 * <ul>
 *   <li>{@code id}: a node id, 1 to 64 of {@code A-Z a-z 0-9 . _ -} ({@link Node#ID_PATTERN}).
 *   <li>{@code host}: a host name or IPv4 address ({@code A-Z a-z 0-9 . _ -}), or an IPv6 address
 *       in brackets: {@code n1=[::1]:6379}.
 *   <li>{@code port}: 1 to 65535.
 *   <li>{@code zone}, optional: 1 to 64 of {@code A-Z a-z 0-9 . _ -}.
 * </ul>
 *
 * <p>The nodes have no tags and no TLS. A bad spec throws {@link IllegalArgumentException} with a
 * one-line message that quotes it and says what is wrong; the verbs prefix it with the option or
 * argument it came from and report it as a usage error.
 *
 * <p>Stateless and thread-safe.
 */
final class NodeSpec {

  /** The syntax, for messages and help. */
  static final String SYNTAX = "id=host:port[@zone]";

  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
  private static final Pattern ZONE = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

  private NodeSpec() {}

  /**
   * One node: {@code id=host:port[@zone]}.
   *
   * @throws IllegalArgumentException quoting the spec and saying what is wrong
   */
  static Node parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    int equals = spec.indexOf('=');
    if (equals < 0) {
      throw bad(spec, "no '=' between the id and the address");
    }
    String id = spec.substring(0, equals);
    if (id.isEmpty()) {
      throw bad(spec, "no node id before '='");
    }
    if (!Node.ID_PATTERN.matcher(id).matches()) {
      throw bad(spec, "the node id must be 1 to 64 of A-Z a-z 0-9 . _ -, was '" + id + "'");
    }
    String rest = spec.substring(equals + 1);
    String zone = null;
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      zone = rest.substring(at + 1);
      rest = rest.substring(0, at);
      if (!ZONE.matcher(zone).matches()) {
        throw bad(spec, "the zone must be 1 to 64 of A-Z a-z 0-9 . _ -, was '" + zone + "'");
      }
    }
    String host;
    String port;
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      if (close < 0) {
        throw bad(spec, "no ']' after the IPv6 address");
      }
      host = rest.substring(1, close);
      if (!IPV6.matcher(host).matches()) {
        throw bad(spec, "'" + host + "' is not an IPv6 address");
      }
      if (close + 1 >= rest.length() || rest.charAt(close + 1) != ':') {
        throw bad(spec, "no ':port' after the address");
      }
      port = rest.substring(close + 2);
    } else {
      int colon = rest.lastIndexOf(':');
      if (colon < 0) {
        throw bad(spec, "no ':port' after the host");
      }
      host = rest.substring(0, colon);
      port = rest.substring(colon + 1);
      if (host.indexOf(':') >= 0) {
        throw bad(spec, "an IPv6 address goes in brackets, as in " + id + "=[::1]:6379");
      }
      if (host.isEmpty()) {
        throw bad(spec, "no host before ':port'");
      }
      if (!HOST.matcher(host).matches()) {
        throw bad(spec, "the host must be a name or an address of A-Z a-z 0-9 . _ -");
      }
    }
    return new Node(id, host, port(spec, port), zone, Map.of(), false);
  }

  /**
   * Nodes separated by commas, in the order given, by id.
   *
   * @throws IllegalArgumentException if the list is empty, a spec is bad, or two nodes have the
   *     same id or the same address
   */
  static Map<String, Node> parseList(String specs) {
    return parseAll(List.of(specs));
  }

  /**
   * The nodes of several comma-separated lists (an option given more than once), in order, by id.
   *
   * @throws IllegalArgumentException as {@link #parseList}
   */
  static Map<String, Node> parseAll(List<String> lists) {
    Map<String, Node> nodes = new LinkedHashMap<>();
    Map<String, String> byAddress = new HashMap<>();
    for (String list : lists) {
      for (String spec : list.split(",", -1)) {
        if (spec.isEmpty()) {
          throw new IllegalArgumentException(
              "empty node in '" + list + "': separate " + SYNTAX + " specs with single commas");
        }
        Node node = parse(spec);
        if (nodes.containsKey(node.id())) {
          throw new IllegalArgumentException("node id '" + node.id() + "' is given twice");
        }
        String other = byAddress.putIfAbsent(node.address(), node.id());
        if (other != null) {
          throw new IllegalArgumentException(
              "nodes '"
                  + other
                  + "' and '"
                  + node.id()
                  + "' have the same address "
                  + node.address());
        }
        nodes.put(node.id(), node);
      }
    }
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("no node: give " + SYNTAX + "[,...]");
    }
    return nodes;
  }

  /** {@code id=host:port[@zone]} of a node (its tags and TLS flag are left out). */
  static String format(Node node) {
    return node.id() + "=" + node.address() + (node.zone() == null ? "" : "@" + node.zone());
  }

  private static int port(String spec, String text) {
    if (text.isEmpty()) {
      throw bad(spec, "no port after ':'");
    }
    int port = PORT.matcher(text).matches() ? Integer.parseInt(text) : -1;
    if (port < 1 || port > 65535) {
      throw bad(spec, "the port must be a number from 1 to 65535, was '" + text + "'");
    }
    return port;
  }

  private static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException("'" + spec + "' is not " + SYNTAX + ": " + why);
  }
}
