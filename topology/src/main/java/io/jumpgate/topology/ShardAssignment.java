package io.jumpgate.topology;

import io.jumpgate.spi.ShardState;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One shard's entry as stored in etcd ({@code <root>/shards/<shard-id>}): node ids, not addresses.
 *
 * <p>Immutable and thread-safe. The constructor enforces the contract's rules for the entry on its
 * own (leader not among the replicas, no duplicate replica, epoch at least 0); whether the node ids
 * exist is checked against the node table when a snapshot is built.
 *
 * @param shard the shard id, at least 0
 * @param leader node id of the leader
 * @param replicas node ids of the replicas, in order; default empty
 * @param epoch bumped by every change of leader; default 0
 * @param state default {@link ShardState#ACTIVE}
 */
public record ShardAssignment(
    int shard, String leader, List<String> replicas, long epoch, ShardState state) {

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
  }

  /** An active assignment. */
  public static ShardAssignment of(int shard, String leader, List<String> replicas, long epoch) {
    return new ShardAssignment(shard, leader, replicas, epoch, ShardState.ACTIVE);
  }

  /**
   * This assignment with another leader and replicas; the epoch is bumped if the leader changed.
   */
  public ShardAssignment withNodes(String newLeader, List<String> newReplicas) {
    long newEpoch = newLeader.equals(leader) ? epoch : epoch + 1;
    return new ShardAssignment(shard, newLeader, newReplicas, newEpoch, state);
  }

  /** Whether the node leads or replicates this shard. */
  public boolean involves(String nodeId) {
    return leader.equals(nodeId) || replicas.contains(nodeId);
  }
}
