package io.jumpgate.driver;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A topology source for unit tests: one fixed snapshot whose shards are spread round robin over
 * nodes on 127.0.0.1 ports where nothing listens, so a command that gets sent fails to connect, and
 * checks made before sending can be tested without a server.
 */
final class StaticTopologySource implements TopologySource {

  private final TopologySnapshot snapshot;
  private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();

  StaticTopologySource(int shards, int nodeCount) {
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
    this.snapshot =
        TopologySnapshot.create(
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

  @Override
  public CompletionStage<TopologySnapshot> start() {
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(null, snapshot);
    }
    return CompletableFuture.completedFuture(snapshot);
  }

  @Override
  public TopologySnapshot current() {
    return snapshot;
  }

  @Override
  public AutoCloseable subscribe(TopologyListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public TopologySourceStatus status() {
    return new TopologySourceStatus(true, snapshot.revision(), Instant.now(), null);
  }

  @Override
  public String description() {
    return "static unit-test topology";
  }

  @Override
  public void close() {}
}
