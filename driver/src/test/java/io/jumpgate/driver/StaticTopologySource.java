package io.jumpgate.driver;

import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The map of unit tests that must not reach a server: an {@link InMemoryTopologySource} whose
 * shards are spread round robin over nodes on 127.0.0.1 ports where nothing listens, so a command
 * that gets sent fails to connect, and checks made before sending can be tested without a server.
 */
final class StaticTopologySource {

  private StaticTopologySource() {}

  static InMemoryTopologySource create(int shards, int nodeCount) {
    List<Node> nodes = new ArrayList<>();
    for (int index = 0; index < nodeCount; index++) {
      nodes.add(Node.of("node-" + index, "127.0.0.1", closedPort()));
    }
    return InMemoryTopologySource.roundRobin(shards, nodes);
  }

  /** A port that was free a moment ago: nothing listens there. */
  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
