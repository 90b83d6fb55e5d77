package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A change of one cluster's map, computed by a {@link TopologyAdmin} from what it read and not yet
 * written: what to print before asking, and exactly what {@link TopologyAdmin#apply} writes.
 *
 * <p>It holds the {@link PlacementPlanner}'s {@link Plan} (per-shard steps with before and after,
 * summary, warnings), the node entries it adds or removes, the revision it was read at, and every
 * key write with the mod revision it expects to find: {@code apply} compares each key's mod
 * revision with {@link KeyWrite#expectedModRevision()} (0: the key must not exist) in the
 * transaction that writes it, so the plan is applied only to the map it was computed from.
 *
 * <p>Besides the keys it writes, the plan checks the node entries its shards name ({@link
 * #checks()}): each transaction also compares the mod revision of every node key that a shard it
 * writes names, so a shard is never given to a node that was removed or re-addressed since the
 * read.
 *
 * <p>Key writes are ordered so that every prefix of them leaves a valid map: new node entries
 * first, then shards in ascending order, removed node entries last. A plan of more writes than fit
 * in one etcd transaction ({@link TopologyAdminOptions#maxOperationsPerTransaction()}) is applied
 * in {@link #transactions()} transactions, in that order; each is atomic and compare-and-set, but a
 * conflict in a later one leaves the earlier ones applied (see {@link
 * TopologyAdminConflictException}).
 *
 * <p>An {@code init} plan ({@link #initialises()}) has a {@link #metadata()}, and its writes, all
 * expected absent, are the nodes and shards; {@code apply} writes them with the init protocol (see
 * {@link TopologyAdmin#init}) and writes the meta last.
 *
 * <p>Immutable and thread-safe. Every component is a plain value, so a generic JSON mapper can
 * print a plan and read it back.
 *
 * @param cluster the cluster name
 * @param readRevision etcd's own revision when the map was read (the header revision of the read):
 *     it moves with every write under the cluster's root, client registrations and the migration
 *     lock included, so it is not the map's revision; kept for the compare-and-set's diagnostics
 * @param mapRevision the map's revision as the contract defines it: the revision of the last change
 *     to {@code meta}, {@code nodes/} or {@code shards/} when the map was read, as {@code topology
 *     show} reports it; 0 for an {@code init} plan (there is no map yet)
 * @param plan the placement change
 * @param metadata the meta an {@code init} plan writes; null for every other plan
 * @param nodeChanges node entries added (with the node) or removed (node null), in write order
 * @param writes every key the plan puts or deletes, in write order
 * @param checks node keys that shards written by the plan name, and that the plan does not write
 *     itself, with the mod revision read: each transaction compares those its shards name
 * @param transactions how many etcd transactions {@code apply} uses, with the options of the admin
 *     that computed the plan
 */
public record TopologyAdminPlan(
    String cluster,
    long readRevision,
    long mapRevision,
    Plan plan,
    TopologyMetadata metadata,
    List<NodeChange> nodeChanges,
    List<KeyWrite> writes,
    List<KeyCheck> checks,
    int transactions) {

  /**
   * A node entry that the plan adds or removes.
   *
   * @param nodeId the node id
   * @param node the node written, or null when the entry is removed
   */
  public record NodeChange(String nodeId, Node node) {

    /**
     * @throws IllegalArgumentException if the node's id is not {@code nodeId}
     */
    public NodeChange {
      Objects.requireNonNull(nodeId, "nodeId");
      if (node != null && !node.id().equals(nodeId)) {
        throw new IllegalArgumentException(
            "node change of '" + nodeId + "' holds node '" + node.id() + "'");
      }
    }

    /** Whether the entry is removed. */
    public boolean removes() {
      return node == null;
    }

    /** One line for people. */
    public String describe() {
      if (node == null) {
        return "remove node " + nodeId;
      }
      return "add node "
          + nodeId
          + " at "
          + node.address()
          + (node.zone() == null ? "" : ", zone " + node.zone())
          + (node.tls() ? ", tls" : "");
    }
  }

  /**
   * One key the plan writes.
   *
   * @param key the full etcd key
   * @param value the UTF-8 JSON value to put, or null to delete the key
   * @param expectedModRevision the key's mod revision when the plan was computed; 0 when the key
   *     did not exist (the write then requires it still not to exist)
   */
  public record KeyWrite(String key, String value, long expectedModRevision) {

    /**
     * @throws IllegalArgumentException if the expected revision is negative, or a delete expects an
     *     absent key
     */
    public KeyWrite {
      Objects.requireNonNull(key, "key");
      if (expectedModRevision < 0) {
        throw new IllegalArgumentException(
            "expected mod revision of " + key + " must be at least 0, was " + expectedModRevision);
      }
      if (value == null && expectedModRevision == 0) {
        throw new IllegalArgumentException("cannot delete " + key + ", which does not exist");
      }
    }

    /** Whether the key is deleted. */
    public boolean deletes() {
      return value == null;
    }
  }

  /**
   * A key the plan does not write but requires unchanged: a node that a written shard names.
   *
   * @param key the full etcd key
   * @param expectedModRevision the key's mod revision when the plan was computed, at least 1
   */
  public record KeyCheck(String key, long expectedModRevision) {

    /**
     * @throws IllegalArgumentException if the expected revision is below 1
     */
    public KeyCheck {
      Objects.requireNonNull(key, "key");
      if (expectedModRevision < 1) {
        throw new IllegalArgumentException(
            "expected mod revision of " + key + " must be at least 1, was " + expectedModRevision);
      }
    }
  }

  /**
   * @throws IllegalArgumentException if a count or revision is negative, or a key is written or
   *     checked twice
   */
  public TopologyAdminPlan {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(plan, "plan");
    nodeChanges = List.copyOf(nodeChanges);
    writes = List.copyOf(writes);
    checks = List.copyOf(checks);
    if (readRevision < 0) {
      throw new IllegalArgumentException("readRevision must be at least 0, was " + readRevision);
    }
    if (mapRevision < 0 || mapRevision > readRevision) {
      throw new IllegalArgumentException(
          "mapRevision must be in [0, readRevision " + readRevision + "], was " + mapRevision);
    }
    if (transactions < 0) {
      throw new IllegalArgumentException("transactions must be at least 0, was " + transactions);
    }
    Set<String> seen = new HashSet<>();
    for (KeyWrite write : writes) {
      if (!seen.add(write.key())) {
        throw new IllegalArgumentException("the plan writes " + write.key() + " twice");
      }
    }
    for (KeyCheck check : checks) {
      if (!seen.add(check.key())) {
        throw new IllegalArgumentException(
            "the plan checks " + check.key() + " twice, or checks a key it writes");
      }
    }
  }

  /**
   * A plan whose map revision is its read revision: for a map that nothing but the map's own keys
   * were written under (tests, and callers that read the map alone).
   */
  public TopologyAdminPlan(
      String cluster,
      long readRevision,
      Plan plan,
      TopologyMetadata metadata,
      List<NodeChange> nodeChanges,
      List<KeyWrite> writes,
      List<KeyCheck> checks,
      int transactions) {
    this(
        cluster,
        readRevision,
        metadata == null ? readRevision : 0,
        plan,
        metadata,
        nodeChanges,
        writes,
        checks,
        transactions);
  }

  /**
   * How many keys {@link TopologyAdmin#apply} writes: every key of {@link #writes()}, and the meta
   * of an {@code init} plan (written last, not among the writes).
   */
  public int keysToWrite() {
    return writes.size() + (metadata == null ? 0 : 1);
  }

  /** Whether this is an {@code init} plan. */
  public boolean initialises() {
    return metadata != null;
  }

  /** Whether applying the plan writes nothing. */
  public boolean changesNothing() {
    return writes.isEmpty() && metadata == null;
  }

  /**
   * The plan for people, one line each: the map's revision it was read at ({@link #mapRevision()}),
   * the planner's lines (see {@link Plan#describe()}), the node entries added or removed, the meta
   * of an init, and how many transactions it takes. The wording may change; programs read the
   * components instead.
   */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add(
        "cluster '"
            + cluster
            + "'"
            + (initialises()
                ? ", not initialised (etcd at revision " + readRevision + ")"
                : ", read at revision " + mapRevision));
    lines.addAll(plan.describe());
    for (NodeChange change : nodeChanges) {
      lines.add(change.describe());
    }
    if (metadata != null) {
      lines.add(
          "write meta: format "
              + metadata.format()
              + ", "
              + metadata.shards()
              + " shards, routing "
              + metadata.routing()
              + " (last: the cluster appears whole at that revision)");
    }
    if (changesNothing()) {
      lines.add("nothing to change");
    } else if (transactions == 1) {
      lines.add(keysToWrite() + " key(s) to write in 1 transaction");
    } else {
      lines.add(
          keysToWrite()
              + " key(s) to write in "
              + transactions
              + " transactions"
              + (initialises()
                  ? " (readers see the cluster only once the last one writes meta)"
                  : " (each atomic and compare-and-set; if one loses, the earlier ones stay"
                      + " applied: plan and apply again to finish)"));
    }
    return List.copyOf(lines);
  }
}
