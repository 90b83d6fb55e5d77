package io.jumpgate.topology.internal;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyEntryException;
import io.jumpgate.topology.TopologyKeys.ParsedKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every shard's current raw entry, the assignment in force and the route built from it.
 *
 * <p>A shard key change only marks the shard dirty; {@link #revalidate} then checks the dirty
 * shards against the final node table of the revision, so the order of the events inside one
 * revision does not matter. A valid entry becomes the assignment in force; an invalid one is
 * reported and leaves the assignment in force as it was (or, if there is none, becomes the reason
 * the shard is unavailable). Deleting a shard key leaves the shard without an assignment.
 *
 * <p>A migrating or frozen shard's migration target must be in the node table too, like its leader
 * and replicas (the contract: "{@code to} is a known node").
 *
 * <p>Two keys for one shard (e.g. {@code 0007} and {@code 7}): the first one stays the shard's
 * entry and the other is reported invalid until one of them is deleted.
 *
 * <p>Not thread-safe: confined to the topology thread with its {@link TopologyState}.
 */
final class ShardTable {

  static final String NO_ASSIGNMENT = "no assignment in etcd";

  private record ShardEntry(
      String key, int shard, long modRevision, ShardAssignment assignment, String error) {}

  private final int shardCount;
  private final ShardEntry[] entries;
  private final Map<String, ShardEntry> secondKeys = new HashMap<>();
  private final ShardAssignment[] inForce;
  private final long[] inForceRevisions;
  private final String[] unavailableReasons;
  private final ShardRoute[] routes;
  private final BitSet dirty;

  /**
   * For each node id, the shards whose entry or assignment in force names it: a node change marks
   * them dirty without scanning the table (at 65536 shards the scan cost more than the rest of a
   * revision). Sized once per node: shardCount / 8 bytes (8 KB per node at 65536 shards).
   */
  private final Map<String, BitSet> referencing = new HashMap<>();

  ShardTable(int shardCount) {
    this.shardCount = shardCount;
    this.entries = new ShardEntry[shardCount];
    this.inForce = new ShardAssignment[shardCount];
    this.inForceRevisions = new long[shardCount];
    this.unavailableReasons = new String[shardCount];
    this.routes = new ShardRoute[shardCount];
    this.dirty = new BitSet(shardCount);
    Arrays.fill(unavailableReasons, NO_ASSIGNMENT);
    for (int shard = 0; shard < shardCount; shard++) {
      routes[shard] = ShardRoute.unavailable(shard, NO_ASSIGNMENT);
    }
  }

  /** A shard key was written. */
  void put(String key, ParsedKey parsed, byte[] value, long modRevision, InvalidEntries invalid) {
    String problem = keyProblem(parsed);
    if (problem != null) {
      invalid.report(key, problem, modRevision);
      return;
    }
    int shard = parsed.shard();
    ShardEntry entry;
    try {
      entry =
          new ShardEntry(
              key, shard, modRevision, TopologyCodec.decodeAssignment(shard, value), null);
    } catch (TopologyEntryException e) {
      entry = new ShardEntry(key, shard, modRevision, null, e.getMessage());
    }
    ShardEntry current = entries[shard];
    if (current == null || current.key().equals(key)) {
      unindex(shard);
      entries[shard] = entry;
      index(shard);
      dirty.set(shard);
    } else {
      secondKeys.put(key, entry);
      invalid.report(
          key,
          "shard " + shard + " already has an entry at " + current.key() + "; delete one of them",
          modRevision);
    }
  }

  /** A shard key was deleted at {@code revision}. */
  void delete(String key, ParsedKey parsed, long revision, InvalidEntries invalid) {
    invalid.clear(key);
    if (keyProblem(parsed) != null || secondKeys.remove(key) != null) {
      return;
    }
    int shard = parsed.shard();
    ShardEntry current = entries[shard];
    if (current == null || !current.key().equals(key)) {
      return;
    }
    unindex(shard);
    entries[shard] = null;
    inForce[shard] = null;
    unavailableReasons[shard] = "assignment deleted at revision " + revision;
    dirty.set(shard);
    for (Iterator<ShardEntry> others = secondKeys.values().iterator(); others.hasNext(); ) {
      ShardEntry other = others.next();
      if (other.shard() == shard) {
        others.remove();
        invalid.clear(other.key());
        entries[shard] = other;
        break;
      }
    }
    index(shard);
  }

  /** Forgets the node ids the shard's entry and assignment in force name (before they change). */
  private void unindex(int shard) {
    ShardEntry entry = entries[shard];
    forEachNode(entry == null ? null : entry.assignment(), shard, false);
    forEachNode(inForce[shard], shard, false);
  }

  /** Records the node ids the shard's entry and assignment in force name (after they changed). */
  private void index(int shard) {
    ShardEntry entry = entries[shard];
    forEachNode(entry == null ? null : entry.assignment(), shard, true);
    forEachNode(inForce[shard], shard, true);
  }

  private void forEachNode(ShardAssignment assignment, int shard, boolean add) {
    if (assignment == null) {
      return;
    }
    mark(assignment.leader(), shard, add);
    for (String replica : assignment.replicas()) {
      mark(replica, shard, add);
    }
    if (assignment.migration() != null) {
      mark(assignment.migration().to(), shard, add);
    }
  }

  private void mark(String nodeId, int shard, boolean add) {
    if (add) {
      referencing.computeIfAbsent(nodeId, id -> new BitSet(shardCount)).set(shard);
      return;
    }
    BitSet shards = referencing.get(nodeId);
    if (shards != null) {
      shards.clear(shard);
      if (shards.isEmpty()) {
        referencing.remove(nodeId);
      }
    }
  }

  private String keyProblem(ParsedKey parsed) {
    if (parsed.shard() < 0) {
      return parsed.name().chars().allMatch(c -> c >= '0' && c <= '9')
          ? "shard id " + parsed.name() + " is out of range [0, " + shardCount + ")"
          : "shard id '" + excerpt(parsed.name()) + "' is not a decimal number";
    }
    if (parsed.shard() >= shardCount) {
      return "shard id " + parsed.name() + " is out of range [0, " + shardCount + ")";
    }
    return null;
  }

  /** Marks dirty every shard whose entry or assignment in force names one of these nodes. */
  void markReferencing(Set<String> nodeIds) {
    for (String nodeId : nodeIds) {
      BitSet shards = referencing.get(nodeId);
      if (shards != null) {
        dirty.or(shards);
      }
    }
  }

  /** Validates the dirty shards against the node table and rebuilds their routes. */
  void revalidate(NodeTable nodes, InvalidEntries invalid) {
    for (int shard = dirty.nextSetBit(0); shard >= 0; shard = dirty.nextSetBit(shard + 1)) {
      validate(shard, nodes, invalid);
      routes[shard] = route(shard, nodes);
    }
    dirty.clear();
  }

  private void validate(int shard, NodeTable nodes, InvalidEntries invalid) {
    ShardEntry entry = entries[shard];
    if (entry == null) {
      return; // never written or deleted: the reason is already set
    }
    String problem =
        entry.error() != null ? entry.error() : crossCheck(entry.assignment(), nodes, shard);
    if (problem == null) {
      unindex(shard);
      inForce[shard] = entry.assignment();
      index(shard);
      inForceRevisions[shard] = entry.modRevision();
      unavailableReasons[shard] = null;
      invalid.clear(entry.key());
    } else {
      invalid.report(entry.key(), problem, entry.modRevision());
      if (inForce[shard] == null) {
        unavailableReasons[shard] = problem;
      }
    }
  }

  private String crossCheck(ShardAssignment assignment, NodeTable nodes, int shard) {
    if (!nodes.contains(assignment.leader())) {
      return "leader '" + assignment.leader() + "' is not in the node table";
    }
    for (String replica : assignment.replicas()) {
      if (!nodes.contains(replica)) {
        return "replica '" + replica + "' is not in the node table";
      }
    }
    if (assignment.migration() != null && !nodes.contains(assignment.migration().to())) {
      return "migration target '" + assignment.migration().to() + "' is not in the node table";
    }
    ShardAssignment current = inForce[shard];
    if (current != null && assignment.epoch() < current.epoch()) {
      return "epoch "
          + assignment.epoch()
          + " is older than the epoch "
          + current.epoch()
          + " in force";
    }
    return null;
  }

  private ShardRoute route(int shard, NodeTable nodes) {
    ShardAssignment assignment = inForce[shard];
    if (assignment == null) {
      return ShardRoute.unavailable(shard, unavailableReasons[shard]);
    }
    Node leader = nodes.resolve(assignment.leader());
    List<Node> replicas = new ArrayList<>(assignment.replicas().size());
    for (String replicaId : assignment.replicas()) {
      replicas.add(nodes.resolve(replicaId));
    }
    ShardMigration migration =
        assignment.migration() == null
            ? null
            : new ShardMigration(
                assignment.migration().id(), nodes.resolve(assignment.migration().to()));
    return ShardRoute.of(
        shard,
        leader,
        replicas,
        assignment.epoch(),
        assignment.state(),
        migration,
        inForceRevisions[shard]);
  }

  /** The routes, index = shard id; the live array (callers copy it). */
  ShardRoute[] routes() {
    return routes;
  }

  private static String excerpt(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "...";
  }
}
