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
 * <p>While a mover moves the shard's data, {@link #state()} is {@link ShardState#MIGRATING} or
 * {@link ShardState#FROZEN} and {@link #migration()} names the migration and its target node. A
 * route read from a topology store has a migration exactly in those two states; one built by hand
 * may leave it out (such a frozen shard is never held: {@link TopologySnapshot#isHeld(int)}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param shard the shard id, in {@code [0, shards)}
 * @param leader the node that takes writes and leader reads; null when unavailable
 * @param replicas nodes that may serve reads, never containing the leader; copied
 * @param epoch bumped by every change of leader, at least 0
 * @param state {@link ShardState#ACTIVE} unless a migration is in progress
 * @param migration the migration the shard is part of while {@link ShardState#MIGRATING} or {@link
 *     ShardState#FROZEN}, or null
 * @param modRevision etcd revision of the assignment this route comes from (0 when unknown)
 * @param unavailableReason why there is no route, or null when there is one
 */
public record ShardRoute(
    int shard,
    Node leader,
    List<Node> replicas,
    long epoch,
    ShardState state,
    ShardMigration migration,
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
    if (migration != null) {
      if (leader == null) {
        throw new IllegalArgumentException(
            "unavailable shard " + shard + " cannot have a migration");
      }
      if (state == ShardState.ACTIVE) {
        throw new IllegalArgumentException(
            "active shard "
                + shard
                + " cannot have a migration (only a migrating or frozen shard has one)");
      }
      if (migration.to().id().equals(leader.id())) {
        throw new IllegalArgumentException(
            "migration '"
                + migration.id()
                + "' of shard "
                + shard
                + " moves it to its own leader '"
                + leader.id()
                + "'");
      }
    }
  }

  /**
   * A route without a migration: {@link #ShardRoute(int, Node, List, long, ShardState,
   * ShardMigration, long, String)} with a null migration.
   */
  public ShardRoute(
      int shard,
      Node leader,
      List<Node> replicas,
      long epoch,
      ShardState state,
      long modRevision,
      String unavailableReason) {
    this(shard, leader, replicas, epoch, state, null, modRevision, unavailableReason);
  }

  /** An available route without a migration. */
  public static ShardRoute of(
      int shard, Node leader, List<Node> replicas, long epoch, ShardState state, long modRevision) {
    return of(shard, leader, replicas, epoch, state, null, modRevision);
  }

  /**
   * An available route.
   *
   * @param migration the migration while {@code state} is migrating or frozen, else null
   */
  public static ShardRoute of(
      int shard,
      Node leader,
      List<Node> replicas,
      long epoch,
      ShardState state,
      ShardMigration migration,
      long modRevision) {
    return new ShardRoute(
        shard,
        Objects.requireNonNull(leader, "leader"),
        replicas,
        epoch,
        state,
        migration,
        modRevision,
        null);
  }

  /** The route of a shard that has no valid assignment. */
  public static ShardRoute unavailable(int shard, String reason) {
    return new ShardRoute(
        shard,
        null,
        List.of(),
        0,
        ShardState.ACTIVE,
        null,
        0,
        Objects.requireNonNull(reason, "reason"));
  }

  /** Whether the shard has a leader to send requests to. */
  public boolean isAvailable() {
    return leader != null;
  }
}
