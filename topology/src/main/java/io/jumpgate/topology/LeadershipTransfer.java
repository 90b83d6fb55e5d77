package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The one rule by which a shard's leadership moves to another node, shared by {@code addNode},
 * {@code moveLeader} and {@code rebalance}. In order of preference:
 *
 * <ol>
 *   <li>{@link Kind#SWAP}: the node is a replica of the shard. It becomes the leader and the old
 *       leader takes its replica slot. The set of nodes does not change, no data moves.
 *   <li>{@link Kind#REPLACE}: the node replaces the old leader, which leaves the shard; the
 *       replicas stay. Chosen when it does not raise the shard's zone excess.
 *   <li>{@link Kind#REPLACE_AND_REPAIR_ZONES}: the node becomes the leader and the old leader,
 *       which holds the data, takes the slot of a replica that shares the new leader's zone; that
 *       replica leaves the shard. Chosen when a plain replace would put two nodes in one zone and
 *       this does not. Of several such replicas, the one with the most replica memberships leaves.
 *   <li>{@link Kind#REPLACE_BREAKING_ZONES}: a plain replace although it raises the zone excess;
 *       the plan then carries a warning.
 * </ol>
 *
 * <p>In every case the shard keeps its number of replicas, the leader is not a replica, and the
 * epoch goes up by one (the plan builds the new entry with {@link ShardAssignment#withNodes}).
 * Stateless.
 */
final class LeadershipTransfer {

  /** How a leadership moves; the declaration order is the order of preference. */
  enum Kind {
    SWAP,
    REPLACE,
    REPLACE_AND_REPAIR_ZONES,
    REPLACE_BREAKING_ZONES
  }

  private LeadershipTransfer() {}

  /** How the shard's leadership would move to {@code to}, a node other than its leader. */
  static Kind kind(PlacementWorkspace workspace, int shard, String to) {
    if (workspace.replicasOf(shard).contains(to)) {
      return Kind.SWAP;
    }
    if (workspace.replacementKeepsZones(shard, workspace.leaderOf(shard), to)) {
      return Kind.REPLACE;
    }
    if (zoneRepairVictim(workspace, shard, to) != null) {
      return Kind.REPLACE_AND_REPAIR_ZONES;
    }
    return Kind.REPLACE_BREAKING_ZONES;
  }

  /** Moves the shard's leadership to {@code to}, a node other than its leader; returns how. */
  static Kind apply(PlacementWorkspace workspace, int shard, String to) {
    Kind kind = kind(workspace, shard, to);
    switch (kind) {
      case SWAP:
        workspace.swapLeader(shard, to);
        break;
      case REPLACE_AND_REPAIR_ZONES:
        String victim = zoneRepairVictim(workspace, shard, to);
        List<String> replicas = new ArrayList<>(workspace.replicasOf(shard));
        replicas.set(replicas.indexOf(victim), workspace.leaderOf(shard));
        workspace.assign(shard, to, replicas);
        break;
      default:
        workspace.replaceLeader(shard, to);
        break;
    }
    return kind;
  }

  /**
   * The replica whose slot the old leader would take so that the zone excess does not grow, or null
   * when there is none.
   */
  private static String zoneRepairVictim(PlacementWorkspace workspace, int shard, String to) {
    List<String> members = workspace.membersOf(shard);
    int excess = workspace.zoneExcess(members, members.size());
    String oldLeader = workspace.leaderOf(shard);
    String victim = null;
    for (String replica : workspace.replicasOf(shard)) {
      List<String> changed = new ArrayList<>(members);
      changed.set(0, to);
      changed.set(changed.indexOf(replica), oldLeader);
      if (workspace.zoneExcess(changed, members.size()) <= excess
          && (victim == null || workspace.replicaCount(replica) > workspace.replicaCount(victim))) {
        victim = replica;
      }
    }
    return victim;
  }
}
