package io.jumpgate.spi;

import java.util.List;
import java.util.Objects;

/**
 * Where one shard lives in a topology snapshot: its leader, its replicas, its epoch and state, or
 * why it is unavailable.
 *
 * <p>A shard is unavailable when it never had a valid assignment (see the topology contract); then
 * {@link #leader()} is null, {@link #replicas()} is empty and {@link #unavailableReason()} says
 * why. Requests to an unavailable shard fail fast with {@link ShardUnavailableException}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param shard the shard id, in {@code [0, shards)}
 * @param leader the node that takes writes and leader reads; null when unavailable
 * @param replicas nodes that may serve reads, never containing the leader; copied
 * @param epoch bumped by every change of leader, at least 0
 * @param state {@link ShardState#ACTIVE} unless a cutover is in progress
 * @param modRevision etcd revision of the assignment this route comes from (0 when unknown)
 * @param unavailableReason why there is no route, or null when there is one
 */
public record ShardRoute(
    int shard,
    Node leader,
    List<Node> replicas,
    long epoch,
    ShardState state,
    long modRevision,
    String unavailableReason) {

  /**
   * @throws IllegalArgumentException if the route is inconsistent (the message says how)
   */
  public ShardRoute {
    if (shard < 0) {
      throw new IllegalArgumentException("shard must be at least 0, was " + shard);
    }
    if (epoch < 0) {
      throw new IllegalArgumentException("epoch of shard " + shard + " must be at least 0");
    }
    replicas = replicas == null ? List.of() : List.copyOf(replicas);
    Objects.requireNonNull(state, "state");
    if (leader == null) {
      if (unavailableReason == null) {
        throw new IllegalArgumentException(
            "shard " + shard + " has no leader: give the reason it is unavailable");
      }
      if (!replicas.isEmpty()) {
        throw new IllegalArgumentException("unavailable shard " + shard + " cannot have replicas");
      }
    } else {
      if (unavailableReason != null) {
        throw new IllegalArgumentException("shard " + shard + " has a leader and a reason");
      }
      for (Node replica : replicas) {
        if (replica.id().equals(leader.id())) {
          throw new IllegalArgumentException(
              "leader '" + leader.id() + "' of shard " + shard + " is also a replica");
        }
      }
    }
  }

  /** An available route. */
  public static ShardRoute of(
      int shard, Node leader, List<Node> replicas, long epoch, ShardState state, long modRevision) {
    return new ShardRoute(
        shard, Objects.requireNonNull(leader, "leader"), replicas, epoch, state, modRevision, null);
  }

  /** The route of a shard that has no valid assignment. */
  public static ShardRoute unavailable(int shard, String reason) {
    return new ShardRoute(
        shard, null, List.of(), 0, ShardState.ACTIVE, 0, Objects.requireNonNull(reason, "reason"));
  }

  /** Whether the shard has a leader to send requests to. */
  public boolean isAvailable() {
    return leader != null;
  }
}
