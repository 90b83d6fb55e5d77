package io.jumpgate.spi;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;

/**
 * A topology source held in memory, for tests and benchmarks that need a map without etcd: it
 * serves the snapshot it was given, and {@link #publish} makes the next one current and hands it to
 * the listeners on the calling thread, as a real source does on its own thread.
 *
 * <p>{@link #withLeaders} and {@link #roundRobin} build the usual maps (every shard active, no
 * replicas); {@link #publishLeaders} moves leaderships to the next revision. Any snapshot can be
 * published with {@link #publish}.
 *
 * <p>Threading: thread-safe. {@link #current()} is a volatile read. {@link #publish} is serialized
 * (one publisher at a time) and calls the listeners on the publishing thread, in revision order;
 * {@link #start()} calls them with the first snapshot on the starting thread. After {@link
 * #close()} no listener is called and publishing fails.
 *
 * <p>Defaults: the cluster name of the built maps is {@value #CLUSTER}, their first revision 1; the
 * status is always connected and confirmed at the last publish.
 */
public final class InMemoryTopologySource implements TopologySource {

  /** The cluster name of the maps that {@link #withLeaders} and {@link #roundRobin} build. */
  public static final String CLUSTER = "in-memory";

  private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
  private final String description;
  private volatile TopologySnapshot current;
  private volatile Instant confirmedAt = Instant.now();
  private volatile boolean closed;

  private InMemoryTopologySource(String description, TopologySnapshot first) {
    this.description = Objects.requireNonNull(description, "description");
    this.current = Objects.requireNonNull(first, "first snapshot");
  }

  /** A source that serves {@code first} until the next {@link #publish}. */
  public static InMemoryTopologySource of(TopologySnapshot first) {
    return new InMemoryTopologySource("in-memory topology of cluster " + first.cluster(), first);
  }

  /** The same, with the description that messages and logs show. */
  public static InMemoryTopologySource of(TopologySnapshot first, String description) {
    return new InMemoryTopologySource(description, first);
  }

  /**
   * A map of {@code shards} shards over {@code nodes} at revision 1, each shard led by the node
   * {@code leaderOf} names for it (a node of {@code nodes}), or with no route when it returns null.
   *
   * @throws IllegalArgumentException if the node ids repeat, the shard count is out of range, or a
   *     leader is not one of the nodes
   */
  public static InMemoryTopologySource withLeaders(
      int shards, List<Node> nodes, IntFunction<Node> leaderOf) {
    Map<String, Node> byId = byId(nodes);
    return new InMemoryTopologySource(
        "in-memory topology (" + shards + " shards over " + byId.size() + " nodes)",
        snapshot(1, shards, byId, leaderOf));
  }

  /** A map of {@code shards} shards at revision 1, shard {@code s} led by {@code nodes[s % n]}. */
  public static InMemoryTopologySource roundRobin(int shards, List<Node> nodes) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a map needs at least one node");
    }
    return withLeaders(shards, nodes, shard -> nodes.get(shard % nodes.size()));
  }

  /**
   * Makes {@code next} current and hands it to every listener on this thread.
   *
   * @throws IllegalArgumentException if {@code next} is not of a later revision than the current
   *     snapshot, or of another shard count
   * @throws IllegalStateException if the source is closed
   */
  public synchronized void publish(TopologySnapshot next) {
    Objects.requireNonNull(next, "next snapshot");
    if (closed) {
      throw new IllegalStateException(description + " is closed");
    }
    TopologySnapshot previous = current;
    if (next.revision() <= previous.revision()) {
      throw new IllegalArgumentException(
          "revision "
              + next.revision()
              + " does not follow the current revision "
              + previous.revision());
    }
    if (next.metadata().shards() != previous.metadata().shards()) {
      throw new IllegalArgumentException(
          "a map of "
              + next.metadata().shards()
              + " shards cannot follow one of "
              + previous.metadata().shards());
    }
    current = next;
    confirmedAt = Instant.now();
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(previous, next);
    }
  }

  /**
   * Publishes the next revision of this map with the same nodes and shard count, each shard led by
   * the node {@code leaderOf} names (or with no route when it returns null).
   */
  public synchronized void publishLeaders(IntFunction<Node> leaderOf) {
    TopologySnapshot previous = current;
    publish(
        snapshot(
            previous.revision() + 1, previous.metadata().shards(), previous.nodes(), leaderOf));
  }

  @Override
  public CompletionStage<TopologySnapshot> start() {
    TopologySnapshot first = current;
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(null, first);
    }
    return CompletableFuture.completedFuture(first);
  }

  @Override
  public TopologySnapshot current() {
    return current;
  }

  @Override
  public AutoCloseable subscribe(TopologyListener listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public TopologySourceStatus status() {
    return new TopologySourceStatus(!closed, current.revision(), confirmedAt, null);
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public synchronized void close() {
    closed = true;
    listeners.clear();
  }

  private static Map<String, Node> byId(List<Node> nodes) {
    Map<String, Node> byId = new LinkedHashMap<>();
    for (Node node : nodes) {
      if (byId.put(node.id(), node) != null) {
        throw new IllegalArgumentException("node id " + node.id() + " given twice");
      }
    }
    return byId;
  }

  private static TopologySnapshot snapshot(
      long revision, int shards, Map<String, Node> nodes, IntFunction<Node> leaderOf) {
    TopologyMetadata metadata = TopologyMetadata.of(shards);
    ShardRoute[] routes = new ShardRoute[shards];
    for (int shard = 0; shard < shards; shard++) {
      Node leader = leaderOf.apply(shard);
      if (leader == null) {
        routes[shard] = ShardRoute.unavailable(shard, "no leader in this in-memory map");
      } else if (!leader.equals(nodes.get(leader.id()))) {
        throw new IllegalArgumentException(
            "the leader of shard " + shard + ", " + leader + ", is not a node of the map");
      } else {
        routes[shard] = ShardRoute.of(shard, leader, List.of(), 0, ShardState.ACTIVE, revision);
      }
    }
    return TopologySnapshot.create(
        CLUSTER, revision, metadata, nodes, routes, List.of(), Instant.now());
  }
}
