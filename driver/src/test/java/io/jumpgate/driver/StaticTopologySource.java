package io.jumpgate.driver;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topology source for unit tests: one fixed snapshot whose shards are spread round robin over
 * nodes on 127.0.0.1 ports where nothing listens, so a command that gets sent fails to connect, and
 * checks made before sending can be tested without a server.
 */
final class StaticTopologySource extends SnapshotTopologySource {

  StaticTopologySource(int shards, int nodeCount) {
    super("static unit-test topology", snapshot(shards, nodeCount));
  }

  private static TopologySnapshot snapshot(int shards, int nodeCount) {
    Map<String, Node> nodes = new LinkedHashMap<>();
    for (int index = 0; index < nodeCount; index++) {
      Node node = Node.of("node-" + index, "127.0.0.1", closedPort());
      nodes.put(node.id(), node);
    }
    List<Node> list = List.copyOf(nodes.values());
    ShardRoute[] routes = new ShardRoute[shards];
    for (int shard = 0; shard < shards; shard++) {
      routes[shard] =
          ShardRoute.of(shard, list.get(shard % nodeCount), List.of(), 0, ShardState.ACTIVE, 1);
    }
    return TopologySnapshot.create(
        "unit", 1, TopologyMetadata.of(shards), nodes, routes, List.of(), Instant.now());
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
