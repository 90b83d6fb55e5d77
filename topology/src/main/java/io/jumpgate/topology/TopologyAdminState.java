package io.jumpgate.topology;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.TopologyKeys.ParsedKey;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.MetaRules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One cluster's map as the admin reads it: one linearizable ranged GET of {@code
 * /jumpgate/<cluster>/}, decoded, with the mod revision of every key so that a change can compare
 * them.
 *
 * <p>Unlike a topology source, which keeps the last valid value of each key, the admin sees what is
 * in etcd now:
 *
 * <ul>
 *   <li>{@link #nodes()}: every node entry that decodes.
 *   <li>{@link #assignments()}: every shard entry that decodes and whose id is in {@code [0,
 *       shards)}, including those that name a node missing from the node table (which readers
 *       refuse): a removal or failover repairs them.
 *   <li>{@link #invalidEntries()}: the entries that fail to decode, shard ids out of range, and
 *       shard entries that name a node missing from the node table (those are also in {@link
 *       #assignments()}).
 *   <li>{@link #modRevisions()}: meta, every node key and every shard key as read, valid or not;
 *       client registrations and keys outside the schema (such as {@code init-lock}) are left out.
 * </ul>
 *
 * <p>Immutable and thread-safe; the maps are sorted and unmodifiable.
 *
 * @param cluster the cluster name
 * @param revision the header revision of the GET: the map as of this etcd revision (etcd's own
 *     revision, not the map's: see {@link #mapRevision()})
 * @param metadata the cluster's meta
 * @param nodes node table by id
 * @param assignments shard assignments by shard id
 * @param modRevisions mod revision of every meta, node and shard key, by full key
 * @param invalidEntries entries that cannot be used as they are, in key order
 */
public record TopologyAdminState(
    String cluster,
    long revision,
    TopologyMetadata metadata,
    Map<String, Node> nodes,
    Map<Integer, ShardAssignment> assignments,
    Map<String, Long> modRevisions,
    List<InvalidEntry> invalidEntries) {

  /** Copies every collection into an unmodifiable sorted one. */
  public TopologyAdminState {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(metadata, "metadata");
    nodes = Collections.unmodifiableSortedMap(new TreeMap<>(nodes));
    assignments = Collections.unmodifiableSortedMap(new TreeMap<>(assignments));
    modRevisions = Collections.unmodifiableSortedMap(new TreeMap<>(modRevisions));
    invalidEntries = List.copyOf(invalidEntries);
  }

  /**
   * The map's revision as the contract defines it: the highest mod revision of meta, the node keys
   * and the shard keys read (valid or not), as a topology source that lists the map reports it
   * ({@code topology show}). Writes of client registrations, the migration lock, migration records
   * or {@code init-lock} move {@link #revision()}, not this.
   */
  public long mapRevision() {
    long highest = 0;
    for (long modRevision : modRevisions.values()) {
      highest = Math.max(highest, modRevision);
    }
    return highest;
  }

  /** The mod revision of a key as read, or 0 when the key did not exist. */
  public long modRevision(String key) {
    return modRevisions.getOrDefault(key, 0L);
  }

  /** How many shards each node of the node table (and each node the map names) leads. */
  public SortedMap<String, Integer> leaderCounts() {
    SortedMap<String, Integer> counts = new TreeMap<>();
    nodes.keySet().forEach(id -> counts.put(id, 0));
    assignments.values().forEach(a -> counts.merge(a.leader(), 1, Integer::sum));
    return Collections.unmodifiableSortedMap(counts);
  }

  /**
   * Decodes a listing of the cluster's root prefix.
   *
   * @param revision the header revision of the listing
   * @param entries every key under the root with its value and mod revision
   * @throws TopologyUnavailableException when there is no meta ("not initialised"); the message
   *     says when an init is under way
   * @throws IncompatibleTopologyException when the meta is invalid, of a newer format or of another
   *     routing: this admin must not write such a cluster
   */
  static TopologyAdminState decode(TopologyKeys keys, long revision, List<KeyChange> entries) {
    byte[] metaValue = null;
    KeyChange lock = null;
    for (KeyChange entry : entries) {
      if (entry.key().equals(keys.meta())) {
        metaValue = entry.value();
      } else if (entry.key().equals(InitLockProtocol.lockKey(keys))) {
        lock = entry;
      }
    }
    String cluster = "cluster '" + keys.cluster() + "'";
    if (metaValue == null) {
      String message = cluster + " is not initialised at " + keys.root() + " — run `jumpgate init`";
      if (lock != null) {
        message +=
            " (an init has held "
                + lock.key()
                + " since revision "
                + lock.modRevision()
                + " and may still be writing it)";
      }
      throw new TopologyUnavailableException(message);
    }
    TopologyMetadata metadata = decodeMetadata(keys, cluster, metaValue);
    SortedMap<String, Long> modRevisions = new TreeMap<>();
    SortedMap<String, Node> nodes = new TreeMap<>();
    SortedMap<Integer, ShardAssignment> assignments = new TreeMap<>();
    SortedMap<String, String> invalid = new TreeMap<>();
    SortedMap<String, Long> invalidRevisions = new TreeMap<>();
    List<KeyChange> shardEntries = new ArrayList<>();
    for (KeyChange entry : entries) {
      if (entry.value() == null || !entry.key().startsWith(keys.rootPrefix())) {
        continue;
      }
      ParsedKey parsed = keys.parse(entry.key());
      switch (parsed.kind()) {
        case META:
          modRevisions.put(entry.key(), entry.modRevision());
          break;
        case NODE:
          modRevisions.put(entry.key(), entry.modRevision());
          try {
            Node node = TopologyCodec.decodeNode(parsed.name(), entry.value());
            nodes.put(node.id(), node);
          } catch (TopologyEntryException e) {
            invalid.put(entry.key(), e.getMessage());
            invalidRevisions.put(entry.key(), entry.modRevision());
          }
          break;
        case SHARD:
          modRevisions.put(entry.key(), entry.modRevision());
          shardEntries.add(entry);
          break;
        default:
          break;
      }
    }
    for (KeyChange entry : shardEntries) {
      ParsedKey parsed = keys.parse(entry.key());
      String reason = null;
      if (parsed.shard() < 0 || parsed.shard() >= metadata.shards()) {
        reason =
            "shard id '"
                + parsed.name()
                + "' is not a number in [0, "
                + metadata.shards()
                + ") (the cluster has "
                + metadata.shards()
                + " shards)";
      } else if (assignments.containsKey(parsed.shard())) {
        reason =
            "shard "
                + parsed.shard()
                + " has another entry, under another padding of its id: the admin uses the"
                + " first in key order; delete the other";
      } else {
        try {
          ShardAssignment assignment =
              TopologyCodec.decodeAssignment(parsed.shard(), entry.value());
          assignments.put(parsed.shard(), assignment);
          List<String> unknown = new ArrayList<>();
          if (!nodes.containsKey(assignment.leader())) {
            unknown.add(assignment.leader());
          }
          assignment.replicas().stream().filter(id -> !nodes.containsKey(id)).forEach(unknown::add);
          if (assignment.migration() != null && !nodes.containsKey(assignment.migration().to())) {
            unknown.add(assignment.migration().to());
          }
          if (!unknown.isEmpty()) {
            reason = "names node(s) " + unknown + ", not in the node table";
          }
        } catch (TopologyEntryException e) {
          reason = e.getMessage();
        }
      }
      if (reason != null) {
        invalid.put(entry.key(), reason);
        invalidRevisions.put(entry.key(), entry.modRevision());
      }
    }
    List<InvalidEntry> invalidEntries = new ArrayList<>();
    invalid.forEach(
        (key, reason) ->
            invalidEntries.add(new InvalidEntry(key, reason, invalidRevisions.get(key))));
    return new TopologyAdminState(
        keys.cluster(), revision, metadata, nodes, assignments, modRevisions, invalidEntries);
  }

  private static TopologyMetadata decodeMetadata(TopologyKeys keys, String cluster, byte[] value) {
    return MetaRules.usable(value, keys, cluster, MetaRules.Reader.ADMIN);
  }
}
