package io.jumpgate.spi;

import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The shard map at one etcd revision: every shard's route, the node table, and the entries that
 * were kept out because they failed validation.
 *
 * <p>Immutable and thread-safe. A topology source builds a new snapshot for each etcd revision and
 * publishes it whole, so a reader never sees a revision half applied. {@link #route(int)} is an
 * array read: the driver's hot path calls it once per command.
 *
 * <p>A route may name a node that is no longer in {@link #nodes()}: when a node is deleted while
 * shards still reference it, those shards keep their last valid assignment (with the node's last
 * known address) and the shard entries are reported in {@link #invalidEntries()} until an admin
 * fixes the map.
 *
 * <h2>Held shards</h2>
 *
 * <p>A shard is <em>held</em> when its route is {@link ShardState#FROZEN}, the snapshot has a
 * {@link #migrationLock()}, and the lock names the route's {@link ShardRoute#migration()} id: the
 * topology contract's "a freeze is valid only while {@code <root>/migration-lock} exists and names
 * the shard's migration.id". A client holds new requests for a held shard; a frozen shard that is
 * not held is served as active on its current leader. {@link #isHeld(int)} and {@link
 * #hasHeldShards()} are computed once, when the snapshot is built: the hot path reads a field and,
 * only when some shard is held, one word of a bit set.
 */
public final class TopologySnapshot {

  private final String cluster;
  private final long revision;
  private final TopologyMetadata metadata;
  private final SortedMap<String, Node> nodes;
  private final ShardRoute[] routes;
  private final List<ShardRoute> routeList;
  private final List<InvalidEntry> invalidEntries;
  private final Instant loadedAt;
  private final Optional<MigrationLock> migrationLock;

  /**
   * Bit {@code shard % 64} of word {@code shard / 64} is set when the shard is held; null: none.
   */
  private final long[] held;

  private final int heldShardCount;

  private TopologySnapshot(
      String cluster,
      long revision,
      TopologyMetadata metadata,
      SortedMap<String, Node> nodes,
      ShardRoute[] routes,
      List<InvalidEntry> invalidEntries,
      Instant loadedAt,
      MigrationLock migrationLock) {
    this.cluster = cluster;
    this.revision = revision;
    this.metadata = metadata;
    this.nodes = nodes;
    this.routes = routes;
    this.routeList = Collections.unmodifiableList(Arrays.asList(routes));
    this.invalidEntries = invalidEntries;
    this.loadedAt = loadedAt;
    this.migrationLock = Optional.ofNullable(migrationLock);
    long[] bits = null;
    int count = 0;
    if (migrationLock != null) {
      for (ShardRoute route : routes) {
        if (holds(route, migrationLock)) {
          if (bits == null) {
            bits = new long[(routes.length + 63) >>> 6];
          }
          bits[route.shard() >>> 6] |= 1L << route.shard();
          count++;
        }
      }
    }
    this.held = bits;
    this.heldShardCount = count;
  }

  private static boolean holds(ShardRoute route, MigrationLock lock) {
    return route.state() == ShardState.FROZEN
        && route.migration() != null
        && route.migration().id().equals(lock.migrationId());
  }

  /**
   * A snapshot without a migration lock: {@link #create(String, long, TopologyMetadata, Map,
   * ShardRoute[], List, Instant, MigrationLock)} with a null lock (no shard is held).
   */
  public static TopologySnapshot create(
      String cluster,
      long revision,
      TopologyMetadata metadata,
      Map<String, Node> nodes,
      ShardRoute[] routes,
      List<InvalidEntry> invalidEntries,
      Instant loadedAt) {
    return create(cluster, revision, metadata, nodes, routes, invalidEntries, loadedAt, null);
  }

  /**
   * A snapshot.
   *
   * @param cluster the cluster name
   * @param revision the etcd revision this snapshot reflects (for a file source: a counter of
   *     reloads), at least 0
   * @param metadata the cluster's fixed parameters
   * @param nodes the valid node entries by id; copied
   * @param routes one route per shard, index = shard id, {@code metadata.shards()} of them; copied
   * @param invalidEntries entries kept out of the map; copied
   * @param loadedAt when this process built the snapshot
   * @param migrationLock the cluster's valid migration lock, or null when there is none (or it is
   *     not valid): decides which frozen shards are held
   * @throws IllegalArgumentException if the routes do not match the shard count
   */
  public static TopologySnapshot create(
      String cluster,
      long revision,
      TopologyMetadata metadata,
      Map<String, Node> nodes,
      ShardRoute[] routes,
      List<InvalidEntry> invalidEntries,
      Instant loadedAt,
      MigrationLock migrationLock) {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(loadedAt, "loadedAt");
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be at least 0, was " + revision);
    }
    if (routes.length != metadata.shards()) {
      throw new IllegalArgumentException(
          "expected " + metadata.shards() + " routes (one per shard), got " + routes.length);
    }
    ShardRoute[] copy = routes.clone();
    for (int shard = 0; shard < copy.length; shard++) {
      // No message built for a good route: this loop runs over every shard of every snapshot a
      // topology source publishes (1024 string concatenations were most of a one-shard change).
      ShardRoute route = copy[shard];
      if (route == null) {
        throw new NullPointerException("route of shard " + shard);
      }
      if (route.shard() != shard) {
        throw new IllegalArgumentException(
            "route at index " + shard + " is for shard " + route.shard());
      }
    }
    return new TopologySnapshot(
        cluster,
        revision,
        metadata,
        copyNodes(nodes),
        copy,
        List.copyOf(invalidEntries),
        loadedAt,
        migrationLock);
  }

  /**
   * The snapshot after this one, of the same cluster and metadata: what a topology source builds
   * for each revision. It checks what {@link #create(String, long, TopologyMetadata, Map,
   * ShardRoute[], List, Instant, MigrationLock) create} checks, but only for the routes that are
   * not the very objects this snapshot has at the same index (those were checked when this one was
   * built), and it shares this snapshot's node table when {@code nodes} is that table ({@link
   * #nodes()}). So a change of a few shards costs one copy of the route array and one pass over two
   * arrays of references, without reading each route (at 1024 shards and 50 watchers in one JVM,
   * reading every route of every snapshot was most of a one-shard change's CPU).
   *
   * @param revision the map revision of the new snapshot, at least 0
   * @param nodes the valid node entries by id: this snapshot's {@link #nodes()} when unchanged
   *     (shared), else any map (copied)
   * @param routes one route per shard, index = shard id; copied
   * @param invalidEntries entries kept out of the map; copied
   * @param loadedAt when this process built the snapshot
   * @param migrationLock the cluster's valid migration lock, or null
   * @throws IllegalArgumentException if the routes do not match the shard count, or a changed route
   *     is at the index of another shard
   * @throws NullPointerException if a route is null
   */
  public TopologySnapshot next(
      long revision,
      Map<String, Node> nodes,
      ShardRoute[] routes,
      List<InvalidEntry> invalidEntries,
      Instant loadedAt,
      MigrationLock migrationLock) {
    Objects.requireNonNull(loadedAt, "loadedAt");
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be at least 0, was " + revision);
    }
    if (routes.length != this.routes.length) {
      throw new IllegalArgumentException(
          "expected " + this.routes.length + " routes (one per shard), got " + routes.length);
    }
    ShardRoute[] copy = routes.clone();
    ShardRoute[] before = this.routes;
    for (int shard = 0; shard < copy.length; shard++) {
      ShardRoute route = copy[shard];
      if (route == before[shard]) {
        continue; // checked when this snapshot was built
      }
      if (route == null) {
        throw new NullPointerException("route of shard " + shard);
      }
      if (route.shard() != shard) {
        throw new IllegalArgumentException(
            "route at index " + shard + " is for shard " + route.shard());
      }
    }
    return new TopologySnapshot(
        cluster,
        revision,
        metadata,
        nodes == this.nodes ? this.nodes : copyNodes(nodes),
        copy,
        List.copyOf(invalidEntries),
        loadedAt,
        migrationLock);
  }

  private static SortedMap<String, Node> copyNodes(Map<String, Node> nodes) {
    SortedMap<String, Node> nodeTable = new TreeMap<>();
    for (Map.Entry<String, Node> entry : nodes.entrySet()) {
      if (!entry.getKey().equals(entry.getValue().id())) {
        throw new IllegalArgumentException(
            "node table key '" + entry.getKey() + "' holds node '" + entry.getValue().id() + "'");
      }
      nodeTable.put(entry.getKey(), entry.getValue());
    }
    return Collections.unmodifiableSortedMap(nodeTable);
  }

  /** The cluster name. */
  public String cluster() {
    return cluster;
  }

  /**
   * The topology's version: the map revision, the store revision of the last change to the map's
   * keys ({@code meta}, {@code nodes/}, {@code shards/}). Writes that are not changes of the map
   * (client registrations, the migration lock, migration records) do not move it, so every reader
   * of an unchanged map reports the same number.
   */
  public long revision() {
    return revision;
  }

  /** The cluster's fixed parameters. */
  public TopologyMetadata metadata() {
    return metadata;
  }

  /** The number of shards; shard ids are {@code 0} to {@code shardCount() - 1}. */
  public int shardCount() {
    return routes.length;
  }

  /**
   * The route of a shard: one array read, no lock, no allocation.
   *
   * @throws ArrayIndexOutOfBoundsException if the shard is out of range
   */
  public ShardRoute route(int shard) {
    return routes[shard];
  }

  /** Every route, index = shard id; an unmodifiable view. */
  public List<ShardRoute> routes() {
    return routeList;
  }

  /** The valid node entries by id, sorted by id; unmodifiable. */
  public SortedMap<String, Node> nodes() {
    return nodes;
  }

  /** The node with this id, when the node table has a valid entry for it. */
  public Optional<Node> node(String id) {
    return Optional.ofNullable(nodes.get(id));
  }

  /** The entries kept out of this snapshot because they failed validation. */
  public List<InvalidEntry> invalidEntries() {
    return invalidEntries;
  }

  /** When this process built the snapshot. */
  public Instant loadedAt() {
    return loadedAt;
  }

  /**
   * The cluster's migration lock when it exists and is valid; empty otherwise. No allocation: the
   * Optional is built with the snapshot.
   */
  public Optional<MigrationLock> migrationLock() {
    return migrationLock;
  }

  /**
   * Whether the shard is held: frozen, and the migration lock exists and names its migration (see
   * the class description). A field read when no shard is held; otherwise one bit of a word. No
   * lock, no allocation.
   *
   * @param shard a shard id in {@code [0, shardCount())}; for another value the answer is false or
   *     an {@link ArrayIndexOutOfBoundsException}
   */
  public boolean isHeld(int shard) {
    long[] bits = held;
    return bits != null && (bits[shard >>> 6] & (1L << shard)) != 0;
  }

  /** Whether any shard is held: when false, {@link #isHeld(int)} is false for every shard. */
  public boolean hasHeldShards() {
    return held != null;
  }

  /** How many shards are held. */
  public int heldShardCount() {
    return heldShardCount;
  }

  /** The number of shards without a valid route. */
  public int unavailableShardCount() {
    int count = 0;
    for (ShardRoute route : routes) {
      if (!route.isAvailable()) {
        count++;
      }
    }
    return count;
  }

  @Override
  public String toString() {
    return "TopologySnapshot{cluster="
        + cluster
        + ", revision="
        + revision
        + ", shards="
        + routes.length
        + ", nodes="
        + nodes.size()
        + ", invalid="
        + invalidEntries.size()
        + (migrationLock.isPresent()
            ? ", migrationLock=" + migrationLock.get().migrationId() + ", held=" + heldShardCount
            : "")
        + "}";
  }
}
