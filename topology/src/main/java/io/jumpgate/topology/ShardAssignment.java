package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import io.jumpgate.spi.ShardState;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One shard's entry as stored in etcd ({@code <root>/shards/<shard-id>}): node ids, not addresses.
 *
 * <p>Immutable and thread-safe. The constructor enforces the contract's rules for the entry on its
 * own (leader not among the replicas, no duplicate replica, epoch at least 0, a migration exactly
 * when the state is {@link ShardState#MIGRATING} or {@link ShardState#FROZEN}, its target never the
 * leader); whether the node ids exist is checked against the node table when a snapshot is built.
 *
 * @param shard the shard id, at least 0
 * @param leader node id of the leader
 * @param replicas node ids of the replicas, in order; default empty
 * @param epoch bumped by every change of leader; default 0
 * @param state default {@link ShardState#ACTIVE}
 * @param migration the migration while {@code state} is migrating or frozen; null when active
 */
public record ShardAssignment(
    int shard,
    String leader,
    List<String> replicas,
    long epoch,
    ShardState state,
    Migration migration) {

  /**
   * A shard's {@code "migration":{"id":..,"to":..}}, by node id.
   *
   * <p>Immutable and thread-safe.
   *
   * @param id the migration id, {@link ShardMigration#ID_PATTERN}
   * @param to the target node's id, {@link Node#ID_PATTERN}
   */
  public record Migration(String id, String to) {

    /**
     * @throws IllegalArgumentException naming the value that does not match its pattern
     */
    public Migration {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(to, "to");
      if (!ShardMigration.ID_PATTERN.matcher(id).matches()) {
        throw new IllegalArgumentException(
            "migration id must match "
                + ShardMigration.ID_PATTERN.pattern()
                + ", was '"
                + TopologyJson.excerpt(id)
                + "'");
      }
      if (!Node.ID_PATTERN.matcher(to).matches()) {
        throw new IllegalArgumentException(
            "migration target must be a node id matching "
                + Node.ID_PATTERN.pattern()
                + ", was '"
                + TopologyJson.excerpt(to)
                + "'");
      }
    }
  }

  /**
   * @throws IllegalArgumentException naming the shard and the offending value
   */
  public ShardAssignment {
    Objects.requireNonNull(leader, "leader");
    if (shard < 0) {
      throw new IllegalArgumentException("shard must be at least 0, was " + shard);
    }
    if (epoch < 0) {
      throw new IllegalArgumentException(
          "epoch of shard " + shard + " must be at least 0, was " + epoch);
    }
    replicas = replicas == null ? List.of() : List.copyOf(replicas);
    state = state == null ? ShardState.ACTIVE : state;
    Set<String> seen = new HashSet<>();
    for (String replica : replicas) {
      if (replica.equals(leader)) {
        throw new IllegalArgumentException(
            "leader '" + leader + "' of shard " + shard + " is also listed as a replica");
      }
      if (!seen.add(replica)) {
        throw new IllegalArgumentException(
            "replica '" + replica + "' of shard " + shard + " is listed twice");
      }
    }
    if (state == ShardState.ACTIVE) {
      if (migration != null) {
        throw new IllegalArgumentException(
            "active shard " + shard + " cannot have a migration (only a migrating or frozen one)");
      }
    } else {
      if (migration == null) {
        throw new IllegalArgumentException(
            "state \""
                + state.wireName()
                + "\" of shard "
                + shard
                + " needs a \"migration\" ({\"id\":..,\"to\":..})");
      }
      if (migration.to().equals(leader)) {
        throw new IllegalArgumentException(
            "migration '"
                + migration.id()
                + "' of shard "
                + shard
                + " moves it to its own leader '"
                + leader
                + "'");
      }
    }
  }

  /** An assignment without a migration ({@code state} must then be active). */
  public ShardAssignment(
      int shard, String leader, List<String> replicas, long epoch, ShardState state) {
    this(shard, leader, replicas, epoch, state, null);
  }

  /** An active assignment. */
  public static ShardAssignment of(int shard, String leader, List<String> replicas, long epoch) {
    return new ShardAssignment(shard, leader, replicas, epoch, ShardState.ACTIVE, null);
  }

  /**
   * This assignment with another leader and replicas; the epoch is bumped if the leader changed.
   * State and migration stay, unless the new leader is the migration's target: then the result is
   * active without a migration (the admin refuses plans that touch a migrating or frozen shard, so
   * such an assignment is only ever seen in a plan it refuses).
   */
  public ShardAssignment withNodes(String newLeader, List<String> newReplicas) {
    long newEpoch = newLeader.equals(leader) ? epoch : epoch + 1;
    if (migration != null && migration.to().equals(newLeader)) {
      return new ShardAssignment(shard, newLeader, newReplicas, newEpoch, ShardState.ACTIVE, null);
    }
    return new ShardAssignment(shard, newLeader, newReplicas, newEpoch, state, migration);
  }

  /** Whether the node leads or replicates this shard (a migration's target does not count). */
  public boolean involves(String nodeId) {
    return leader.equals(nodeId) || replicas.contains(nodeId);
  }

  /** Whether the entry names the node: as leader, replica or its migration's target. */
  public boolean names(String nodeId) {
    return involves(nodeId) || (migration != null && migration.to().equals(nodeId));
  }
}
