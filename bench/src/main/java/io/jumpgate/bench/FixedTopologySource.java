package io.jumpgate.bench;

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

/**
 * A fixed map for benchmarks over several nodes: shard {@code s} led by {@code nodes[s % n]},
 * revision 1, never changing; no etcd.
 *
 * <p>{@link #start()} publishes the snapshot to the listeners subscribed so far (the driver
 * subscribes before it starts the source). Thread-safe.
 */
public final class FixedTopologySource implements TopologySource {

  private final TopologySnapshot snapshot;
  private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean started;

  /**
   * @param nodes the leaders, at least one, distinct ids
   * @param shards the number of shards, 1 to 65536
   */
  public FixedTopologySource(List<Node> nodes, int shards) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a map needs at least one node");
    }
    Map<String, Node> byId = new LinkedHashMap<>();
    for (Node node : nodes) {
      if (byId.put(node.id(), node) != null) {
        throw new IllegalArgumentException("node id " + node.id() + " given twice");
      }
    }
    ShardRoute[] routes = new ShardRoute[shards];
    for (int shard = 0; shard < shards; shard++) {
      routes[shard] =
          ShardRoute.of(shard, nodes.get(shard % nodes.size()), List.of(), 0, ShardState.ACTIVE, 1);
    }
    this.snapshot =
        TopologySnapshot.create(
            "bench", 1, TopologyMetadata.of(shards), byId, routes, List.of(), Instant.now());
  }

  /** The node index (into the constructor's list) that leads a shard. */
  public static int nodeOfShard(int shard, int nodeCount) {
    return shard % nodeCount;
  }

  @Override
  public synchronized CompletionStage<TopologySnapshot> start() {
    if (!started) {
      started = true;
      for (TopologyListener listener : listeners) {
        listener.onTopologyChange(null, snapshot);
      }
    }
    return CompletableFuture.completedFuture(snapshot);
  }

  @Override
  public TopologySnapshot current() {
    if (!started) {
      throw new IllegalStateException("no topology loaded yet from " + description());
    }
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
    return "a fixed map of "
        + snapshot.shardCount()
        + " shards over "
        + snapshot.nodes().size()
        + " nodes";
  }

  @Override
  public void close() {
    listeners.clear();
  }
}
