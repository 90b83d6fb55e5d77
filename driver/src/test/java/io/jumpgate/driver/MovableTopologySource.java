package io.jumpgate.driver;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;

/**
 * A topology source for unit tests whose map the test sets and moves: each shard's leader is chosen
 * by a function (null: the shard has no route). {@link #publish} hands the next revision to the
 * subscribers on the calling thread, as the driver's topology thread would.
 *
 * <p>Thread-safe.
 */
final class MovableTopologySource implements TopologySource {

  private final int shards;
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
  private volatile TopologySnapshot current;

  /**
   * @param shards the shard count
   * @param nodes every node of the map
   * @param leaderOf the leader of each shard at revision 1
   */
  MovableTopologySource(int shards, List<Node> nodes, IntFunction<Node> leaderOf) {
    this.shards = shards;
    for (Node node : nodes) {
      this.nodes.put(node.id(), node);
    }
    this.current = snapshot(1, leaderOf);
  }

  private TopologySnapshot snapshot(long revision, IntFunction<Node> leaderOf) {
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
  synchronized void publish(IntFunction<Node> leaderOf) {
    TopologySnapshot previous = current;
    TopologySnapshot next = snapshot(previous.revision() + 1, leaderOf);
    current = next;
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(previous, next);
    }
  }

  @Override
  public CompletionStage<TopologySnapshot> start() {
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(null, current);
    }
    return CompletableFuture.completedFuture(current);
  }

  @Override
  public TopologySnapshot current() {
    return current;
  }

  @Override
  public AutoCloseable subscribe(TopologyListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public TopologySourceStatus status() {
    return new TopologySourceStatus(true, current.revision(), Instant.now(), null);
  }

  @Override
  public String description() {
    return "movable unit-test topology";
  }

  @Override
  public void close() {}
}
