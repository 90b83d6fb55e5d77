package io.jumpgate.topology;

import java.util.List;
import java.util.Set;

/**
 * The first placement of every shard on an empty map.
 *
 * <p>Leaders go round-robin over the node ids in sorted order (shard {@code s} to node {@code s mod
 * N}), so leaderships are at most one apart. Replicas are then chosen shard by shard with {@link
 * PlacementWorkspace#bestNewReplica} (zone rule first, then the fewest replicas, then the fewest
 * shards shared with the same leader, which spreads each node's failovers over many nodes) and
 * evened out by {@link ReplicaBalancer}, which never breaks the zone rule. Deterministic: the same
 * input gives the same plan. Stateless.
 */
final class InitialPlacement {

  private InitialPlacement() {}

  static void plan(PlacementWorkspace workspace, int shards, int replicas) {
    List<String> nodes = workspace.eligibleNodes();
    for (int shard = 0; shard < shards; shard++) {
      workspace.assign(shard, nodes.get(shard % nodes.size()), List.of());
      for (int slot = 0; slot < replicas; slot++) {
        workspace.addReplica(shard, workspace.bestNewReplica(shard, replicas + 1, Set.of()));
      }
    }
    ReplicaBalancer.balance(workspace);
  }
}
