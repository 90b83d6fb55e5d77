package io.jumpgate.driver;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A topology source for unit tests whose map the test sets and moves: each shard's leader is chosen
 * by a function (null: the shard has no route). {@link #publish} hands the next revision to the
 * subscribers on the calling thread, as the driver's topology thread would.
 *
 * <p>Thread-safe.
 */
final class MovableTopologySource extends SnapshotTopologySource {

  private final int shards;
  private final Map<String, Node> nodes = new LinkedHashMap<>();

  /**
   * @param shards the shard count
   * @param nodes every node of the map
   * @param leaderOf the leader of each shard at revision 1
   */
  MovableTopologySource(int shards, List<Node> nodes, IntFunction<Node> leaderOf) {
    super("movable unit-test topology", snapshot(1, shards, byId(nodes), leaderOf));
    this.shards = shards;
    this.nodes.putAll(byId(nodes));
  }

  private static Map<String, Node> byId(List<Node> nodes) {
    Map<String, Node> byId = new LinkedHashMap<>();
    for (Node node : nodes) {
      byId.put(node.id(), node);
    }
    return byId;
  }

  private static TopologySnapshot snapshot(
      long revision, int shards, Map<String, Node> nodes, IntFunction<Node> leaderOf) {
    ShardRoute[] routes = new ShardRoute[shards];
    for (int shard = 0; shard < shards; shard++) {
      Node leader = leaderOf.apply(shard);
      routes[shard] =
          leader == null
              ? ShardRoute.unavailable(shard, "no leader in this test's map")
              : ShardRoute.of(shard, leader, List.of(), 0, ShardState.ACTIVE, revision);
    }
    return TopologySnapshot.create(
        "unit", revision, TopologyMetadata.of(shards), nodes, routes, List.of(), Instant.now());
  }

  /** Publishes the next revision, with these leaders, to every subscriber on this thread. */
  void publish(IntFunction<Node> leaderOf) {
    publish(snapshot(current().revision() + 1, shards, nodes, leaderOf));
  }
}
