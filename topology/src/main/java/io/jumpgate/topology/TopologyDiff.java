package io.jumpgate.topology;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The differences between two topology snapshots, {@code before} and {@code after}: what {@code
 * jumpgate topology watch} prints for each new revision and {@code jumpgate topology diff} for two
 * maps.
 *
 * <p>What counts as a difference:
 *
 * <ul>
 *   <li>the cluster name or the meta (format, shard count, routing);
 *   <li>nodes of the node table added, removed, or changed (address, zone, tags, TLS);
 *   <li>the migration lock: taken, released, or held for another migration or by another owner (its
 *       create revision is not compared);
 *   <li>shards whose leader, replicas, epoch, state, migration or availability changed. Shards are
 *       compared by node ids: a node's new address is one node change, not a change of every shard
 *       it serves. When the shard counts differ, a shard present on one side only is a change too;
 *   <li>invalid entries that appeared (a new key, or a new reason or revision for a key) or
 *       disappeared (fixed).
 * </ul>
 *
 * <p>The revisions of the two snapshots and the mod revisions of their routes are not compared: two
 * maps with the same content at different revisions are equal ({@link #isEmpty()}).
 *
 * <p>{@link #lines()} renders each change as one line of text, in a stable order (cluster and meta,
 * then the migration lock, then nodes by id, then shards by id, then invalid entries by key), for
 * example:
 *
 * <pre>
 * node n3 added 127.0.0.1:7003 (zone az1)
 * node n2 address 127.0.0.1:7002 -&gt; 127.0.0.1:7012
 * shard 0005 leader n1 -&gt; n0 (epoch 3 -&gt; 4)
 * shard 0006 replicas [n2] -&gt; [n2, n3]
 * migration lock none -&gt; m1 (owner app-1:4242)
 * shard 0009 state active -&gt; migrating, migration none -&gt; m1 to n3
 * shard 0007 unavailable: leader 'n9' is not in the node table (was leader n1, epoch 2)
 * invalid: /jumpgate/default/shards/0007: leader 'n9' is not in the node table
 * fixed: /jumpgate/default/nodes/n4 (was: port must be between 1 and 65535, was 0)
 * </pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class TopologyDiff {

  private final String clusterBefore;
  private final String clusterAfter;
  private final long revisionBefore;
  private final long revisionAfter;
  private final TopologyMetadata metadataBefore;
  private final TopologyMetadata metadataAfter;
  private final MigrationLock lockBefore;
  private final MigrationLock lockAfter;
  private final List<NodeChange> nodeChanges;
  private final List<ShardChange> shardChanges;
  private final List<InvalidEntry> invalidAppeared;
  private final List<InvalidEntry> invalidFixed;

  private TopologyDiff(
      TopologySnapshot before,
      TopologySnapshot after,
      List<NodeChange> nodeChanges,
      List<ShardChange> shardChanges,
      List<InvalidEntry> invalidAppeared,
      List<InvalidEntry> invalidFixed) {
    this.clusterBefore = before.cluster();
    this.clusterAfter = after.cluster();
    this.revisionBefore = before.revision();
    this.revisionAfter = after.revision();
    this.metadataBefore = before.metadata();
    this.metadataAfter = after.metadata();
    this.lockBefore = before.migrationLock().orElse(null);
    this.lockAfter = after.migrationLock().orElse(null);
    this.nodeChanges = List.copyOf(nodeChanges);
    this.shardChanges = List.copyOf(shardChanges);
    this.invalidAppeared = List.copyOf(invalidAppeared);
    this.invalidFixed = List.copyOf(invalidFixed);
  }

  /**
   * The differences that lead from {@code before} to {@code after}.
   *
   * @param before the older (or left-hand) snapshot
   * @param after the newer (or right-hand) snapshot
   */
  public static TopologyDiff between(TopologySnapshot before, TopologySnapshot after) {
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    return new TopologyDiff(
        before,
        after,
        nodeChanges(before, after),
        shardChanges(before, after),
        invalidAppeared(before, after),
        invalidFixed(before, after));
  }

  private static List<NodeChange> nodeChanges(TopologySnapshot before, TopologySnapshot after) {
    Set<String> ids = new TreeSet<>(before.nodes().keySet());
    ids.addAll(after.nodes().keySet());
    List<NodeChange> changes = new ArrayList<>();
    for (String id : ids) {
      Node old = before.nodes().get(id);
      Node now = after.nodes().get(id);
      if (!Objects.equals(old, now)) {
        changes.add(new NodeChange(id, old, now));
      }
    }
    return changes;
  }

  private static List<ShardChange> shardChanges(TopologySnapshot before, TopologySnapshot after) {
    int shards = Math.max(before.shardCount(), after.shardCount());
    List<ShardChange> changes = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      ShardRoute old = shard < before.shardCount() ? before.route(shard) : null;
      ShardRoute now = shard < after.shardCount() ? after.route(shard) : null;
      if (!sameAssignment(old, now)) {
        changes.add(new ShardChange(shard, old, now));
      }
    }
    return changes;
  }

  private static boolean sameAssignment(ShardRoute a, ShardRoute b) {
    if (a == null || b == null) {
      return a == b;
    }
    return Objects.equals(leaderId(a), leaderId(b))
        && replicaIds(a).equals(replicaIds(b))
        && a.epoch() == b.epoch()
        && a.state() == b.state()
        && Objects.equals(migrationText(a), migrationText(b))
        && Objects.equals(a.unavailableReason(), b.unavailableReason());
  }

  private static List<InvalidEntry> invalidAppeared(
      TopologySnapshot before, TopologySnapshot after) {
    Map<String, InvalidEntry> old = byKey(before.invalidEntries());
    List<InvalidEntry> appeared = new ArrayList<>();
    for (InvalidEntry entry : byKey(after.invalidEntries()).values()) {
      if (!entry.equals(old.get(entry.key()))) {
        appeared.add(entry);
      }
    }
    return sortedByKey(appeared);
  }

  private static List<InvalidEntry> invalidFixed(TopologySnapshot before, TopologySnapshot after) {
    Map<String, InvalidEntry> now = byKey(after.invalidEntries());
    List<InvalidEntry> fixed = new ArrayList<>();
    for (InvalidEntry entry : byKey(before.invalidEntries()).values()) {
      if (!now.containsKey(entry.key())) {
        fixed.add(entry);
      }
    }
    return sortedByKey(fixed);
  }

  private static Map<String, InvalidEntry> byKey(List<InvalidEntry> entries) {
    Map<String, InvalidEntry> map = new LinkedHashMap<>();
    for (InvalidEntry entry : entries) {
      map.put(entry.key(), entry);
    }
    return map;
  }

  private static List<InvalidEntry> sortedByKey(List<InvalidEntry> entries) {
    List<InvalidEntry> sorted = new ArrayList<>(entries);
    sorted.sort((a, b) -> a.key().compareTo(b.key()));
    return sorted;
  }

  /** The cluster name of {@code before}. */
  public String clusterBefore() {
    return clusterBefore;
  }

  /** The cluster name of {@code after}. */
  public String clusterAfter() {
    return clusterAfter;
  }

  /** The revision of {@code before}. */
  public long revisionBefore() {
    return revisionBefore;
  }

  /** The revision of {@code after}. */
  public long revisionAfter() {
    return revisionAfter;
  }

  /** The meta of {@code before}. */
  public TopologyMetadata metadataBefore() {
    return metadataBefore;
  }

  /** The meta of {@code after}. */
  public TopologyMetadata metadataAfter() {
    return metadataAfter;
  }

  /** Whether the cluster names differ. */
  public boolean clusterChanged() {
    return !clusterBefore.equals(clusterAfter);
  }

  /** Whether the meta (format, shard count, routing) differs. */
  public boolean metadataChanged() {
    return !metadataBefore.equals(metadataAfter);
  }

  /** Nodes of the node table added, removed or changed, sorted by id; unmodifiable. */
  public List<NodeChange> nodeChanges() {
    return nodeChanges;
  }

  /** Shards whose assignment changed, sorted by shard id; unmodifiable. */
  public List<ShardChange> shardChanges() {
    return shardChanges;
  }

  /**
   * Invalid entries of {@code after} that {@code before} did not have with the same reason and mod
   * revision, sorted by key; unmodifiable.
   */
  public List<InvalidEntry> invalidAppeared() {
    return invalidAppeared;
  }

  /**
   * Invalid entries of {@code before} whose key has no invalid entry in {@code after}, sorted by
   * key; unmodifiable.
   */
  public List<InvalidEntry> invalidFixed() {
    return invalidFixed;
  }

  /**
   * Whether the migration lock was taken, released, or is held for another migration, by another
   * owner or since another time; its create revision is not compared.
   */
  public boolean migrationLockChanged() {
    return !Objects.equals(lockText(lockBefore), lockText(lockAfter));
  }

  private static String lockText(MigrationLock lock) {
    return lock == null ? null : lock.migrationId() + "\n" + lock.owner() + "\n" + lock.since();
  }

  /** Whether the two snapshots hold the same map (revisions aside). */
  public boolean isEmpty() {
    return !clusterChanged()
        && !metadataChanged()
        && !migrationLockChanged()
        && nodeChanges.isEmpty()
        && shardChanges.isEmpty()
        && invalidAppeared.isEmpty()
        && invalidFixed.isEmpty();
  }

  /** The number of lines of {@link #lines()}: one per change. */
  public int changeCount() {
    return (clusterChanged() ? 1 : 0)
        + (metadataChanged() ? 1 : 0)
        + (migrationLockChanged() ? 1 : 0)
        + nodeChanges.size()
        + shardChanges.size()
        + invalidAppeared.size()
        + invalidFixed.size();
  }

  /**
   * One line of text per change, in the order of the class comment; empty when {@link #isEmpty()}.
   */
  public List<String> lines() {
    List<String> lines = new ArrayList<>(changeCount());
    if (clusterChanged()) {
      lines.add("cluster " + clusterBefore + " -> " + clusterAfter);
    }
    if (metadataChanged()) {
      lines.add("meta " + describe(metadataBefore) + " -> " + describe(metadataAfter));
    }
    if (migrationLockChanged()) {
      lines.add("migration lock " + describeLock(lockBefore) + " -> " + describeLock(lockAfter));
    }
    for (NodeChange change : nodeChanges) {
      lines.add(change.describe());
    }
    for (ShardChange change : shardChanges) {
      lines.add(change.describe());
    }
    for (InvalidEntry entry : invalidAppeared) {
      lines.add(describeInvalid(entry));
    }
    for (InvalidEntry entry : invalidFixed) {
      lines.add("fixed: " + entry.key() + " (was: " + entry.reason() + ")");
    }
    return Collections.unmodifiableList(lines);
  }

  /** The {@link #lines()}, each followed by a line feed; empty when {@link #isEmpty()}. */
  public String toText() {
    StringBuilder text = new StringBuilder();
    for (String line : lines()) {
      text.append(line).append('\n');
    }
    return text.toString();
  }

  /** How an invalid entry that appeared is shown: {@code invalid: <key>: <reason>}. */
  public static String describeInvalid(InvalidEntry entry) {
    return "invalid: " + entry.key() + ": " + entry.reason();
  }

  /**
   * A shard id as the map's keys write it, zero-padded to at least 4 digits: {@code 0005}.
   *
   * @throws IllegalArgumentException if the shard is negative
   */
  public static String shardLabel(int shard) {
    if (shard < 0) {
      throw new IllegalArgumentException("shard must be at least 0, was " + shard);
    }
    return String.format("%04d", shard);
  }

  @Override
  public String toString() {
    return "TopologyDiff{revision "
        + revisionBefore
        + " -> "
        + revisionAfter
        + ", nodes="
        + nodeChanges.size()
        + ", shards="
        + shardChanges.size()
        + ", invalidAppeared="
        + invalidAppeared.size()
        + ", invalidFixed="
        + invalidFixed.size()
        + (clusterChanged() || metadataChanged() ? ", meta or cluster changed" : "")
        + "}";
  }

  private static String describe(TopologyMetadata metadata) {
    return "format "
        + metadata.format()
        + ", "
        + metadata.shards()
        + " shards, routing "
        + metadata.routing();
  }

  private static String leaderId(ShardRoute route) {
    return route.isAvailable() ? route.leader().id() : null;
  }

  private static List<String> replicaIds(ShardRoute route) {
    List<String> ids = new ArrayList<>(route.replicas().size());
    for (Node replica : route.replicas()) {
      ids.add(replica.id());
    }
    return ids;
  }

  private static String replicaList(ShardRoute route) {
    return "[" + String.join(", ", replicaIds(route)) + "]";
  }

  /** {@code leader n0, replicas [n1] (epoch 0)}, or {@code unavailable: <reason>}. */
  private static String describeRoute(ShardRoute route) {
    if (!route.isAvailable()) {
      return "unavailable: " + route.unavailableReason();
    }
    return "leader "
        + route.leader().id()
        + ", replicas "
        + replicaList(route)
        + stateSuffix(route)
        + " (epoch "
        + route.epoch()
        + ")";
  }

  private static String stateSuffix(ShardRoute route) {
    if (route.state() == ShardState.ACTIVE) {
      return "";
    }
    String migration = migrationText(route);
    return ", state "
        + route.state().wireName()
        + (migration == null ? "" : ", migration " + migration);
  }

  /** {@code m1 to n3}, or null when the route has no migration. */
  static String migrationText(ShardRoute route) {
    return route.migration() == null
        ? null
        : route.migration().id() + " to " + route.migration().to().id();
  }

  private static String describeLock(MigrationLock lock) {
    return lock == null ? "none" : lock.migrationId() + " (owner " + lock.owner() + ")";
  }

  /**
   * One shard whose assignment differs between the two snapshots.
   *
   * <p>Immutable and thread-safe.
   *
   * @param shard the shard id
   * @param before its route in {@code before}, or null when {@code before} has fewer shards
   * @param after its route in {@code after}, or null when {@code after} has fewer shards
   */
  public record ShardChange(int shard, ShardRoute before, ShardRoute after) {

    /**
     * @throws IllegalArgumentException if both routes are null or a route is of another shard
     */
    public ShardChange {
      if (before == null && after == null) {
        throw new IllegalArgumentException("shard " + shard + ": before or after is required");
      }
      if ((before != null && before.shard() != shard)
          || (after != null && after.shard() != shard)) {
        throw new IllegalArgumentException("routes of shard " + shard + " must be of that shard");
      }
    }

    /** Whether the leader changed (a shard becoming available or unavailable counts). */
    public boolean leaderChanged() {
      return before == null || after == null || !Objects.equals(leaderId(before), leaderId(after));
    }

    /** Whether the replica ids or their order changed. */
    public boolean replicasChanged() {
      return before == null || after == null || !replicaIds(before).equals(replicaIds(after));
    }

    /** Whether the epoch changed. */
    public boolean epochChanged() {
      return before == null || after == null || before.epoch() != after.epoch();
    }

    /** Whether the state (active, migrating, frozen) changed. */
    public boolean stateChanged() {
      return before == null || after == null || before.state() != after.state();
    }

    /** Whether the migration (its id or target) changed. */
    public boolean migrationChanged() {
      return before == null
          || after == null
          || !Objects.equals(migrationText(before), migrationText(after));
    }

    /** Whether the shard became available or unavailable, or exists on one side only. */
    public boolean availabilityChanged() {
      return before == null || after == null || before.isAvailable() != after.isAvailable();
    }

    /**
     * The change as one line, e.g. {@code shard 0005 leader n1 -> n0 (epoch 3 -> 4)}, {@code shard
     * 0005 unavailable: <reason> (was leader n1, epoch 3)} or {@code shard 0005 available: leader
     * n0, replicas [n1] (epoch 4)}.
     */
    public String describe() {
      String label = "shard " + shardLabel(shard);
      if (before == null) {
        return label + " added: " + describeRoute(after);
      }
      if (after == null) {
        return label + " removed (was " + describeRoute(before) + ")";
      }
      if (!after.isAvailable()) {
        return label
            + " unavailable: "
            + after.unavailableReason()
            + (before.isAvailable()
                ? " (was leader " + before.leader().id() + ", epoch " + before.epoch() + ")"
                : "");
      }
      if (!before.isAvailable()) {
        return label + " available: " + describeRoute(after);
      }
      List<String> parts = new ArrayList<>();
      if (leaderChanged()) {
        parts.add("leader " + before.leader().id() + " -> " + after.leader().id());
      }
      if (replicasChanged()) {
        parts.add("replicas " + replicaList(before) + " -> " + replicaList(after));
      }
      if (stateChanged()) {
        parts.add("state " + before.state().wireName() + " -> " + after.state().wireName());
      }
      if (migrationChanged()) {
        parts.add(
            "migration "
                + Objects.requireNonNullElse(migrationText(before), "none")
                + " -> "
                + Objects.requireNonNullElse(migrationText(after), "none"));
      }
      String epoch = "epoch " + before.epoch() + " -> " + after.epoch();
      if (parts.isEmpty()) {
        return label + " " + epoch;
      }
      return label + " " + String.join(", ", parts) + (epochChanged() ? " (" + epoch + ")" : "");
    }

    @Override
    public String toString() {
      return describe();
    }
  }

  /** What happened to a node of the node table. */
  public enum NodeChangeKind {
    /** In {@code after} only. */
    ADDED,
    /** In {@code before} only. */
    REMOVED,
    /** In both, with another address, zone, tags or TLS flag. */
    CHANGED
  }

  /**
   * One node of the node table that differs between the two snapshots.
   *
   * <p>Immutable and thread-safe.
   *
   * @param id the node id
   * @param before the node in {@code before}, or null when it was added
   * @param after the node in {@code after}, or null when it was removed
   */
  public record NodeChange(String id, Node before, Node after) {

    /**
     * @throws IllegalArgumentException if both nodes are null or one has another id
     */
    public NodeChange {
      Objects.requireNonNull(id, "id");
      if (before == null && after == null) {
        throw new IllegalArgumentException("node " + id + ": before or after is required");
      }
      if ((before != null && !before.id().equals(id))
          || (after != null && !after.id().equals(id))) {
        throw new IllegalArgumentException("nodes of change '" + id + "' must have that id");
      }
    }

    /** Added, removed or changed. */
    public NodeChangeKind kind() {
      if (before == null) {
        return NodeChangeKind.ADDED;
      }
      return after == null ? NodeChangeKind.REMOVED : NodeChangeKind.CHANGED;
    }

    /** Whether the node's {@code host:port} changed (false when added or removed). */
    public boolean addressChanged() {
      return kind() == NodeChangeKind.CHANGED && !before.address().equals(after.address());
    }

    /**
     * The change as one line: {@code node n3 added 127.0.0.1:7003 (zone az1)}, {@code node n3
     * removed (was 127.0.0.1:7003)} or {@code node n2 address 127.0.0.1:7002 -> 127.0.0.1:7012,
     * zone az1 -> az2}.
     */
    public String describe() {
      switch (kind()) {
        case ADDED:
          return "node " + id + " added " + after.address() + attributes(after);
        case REMOVED:
          return "node " + id + " removed (was " + before.address() + attributes(before) + ")";
        default:
          List<String> parts = new ArrayList<>();
          if (addressChanged()) {
            parts.add("address " + before.address() + " -> " + after.address());
          }
          if (!Objects.equals(before.zone(), after.zone())) {
            parts.add("zone " + orNone(before.zone()) + " -> " + orNone(after.zone()));
          }
          if (!before.tags().equals(after.tags())) {
            parts.add("tags " + before.tags() + " -> " + after.tags());
          }
          if (before.tls() != after.tls()) {
            parts.add("tls " + before.tls() + " -> " + after.tls());
          }
          return "node " + id + " " + String.join(", ", parts);
      }
    }

    private static String attributes(Node node) {
      List<String> parts = new ArrayList<>();
      if (node.zone() != null) {
        parts.add("zone " + node.zone());
      }
      if (!node.tags().isEmpty()) {
        parts.add("tags " + node.tags());
      }
      if (node.tls()) {
        parts.add("tls");
      }
      return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    private static String orNone(String value) {
      return value == null ? "none" : value;
    }

    @Override
    public String toString() {
      return describe();
    }
  }
}
