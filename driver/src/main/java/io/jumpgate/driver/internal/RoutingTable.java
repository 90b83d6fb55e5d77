package io.jumpgate.driver.internal;

import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The routing view of one topology snapshot: for every shard, the handle of its leader and of its
 * replicas, so that choosing a node is array reads and no lookup. Built on the topology thread for
 * each new snapshot and published whole (immutable after construction).
 */
public final class RoutingTable {

  private static final NodeHandle[] NONE = new NodeHandle[0];

  private final TopologySnapshot snapshot;
  private final long generation;
  private final boolean hasHeld;
  private final NodeHandle[] leaders;
  private final NodeHandle[][] replicas;
  private final NodeHandle[][] sameZone;
  private final NodeHandle[] leaderNodes;
  private final NodeHandle[] allNodes;
  private final Map<String, NodeHandle> byAddress;
  private final java.util.IdentityHashMap<NodeHandle, Integer> indexOf;

  /**
   * @param snapshot the topology
   * @param handleOf the shared handle of a node (created on first sight)
   * @param zone the client's zone, or null
   */
  public RoutingTable(TopologySnapshot snapshot, Function<Node, NodeHandle> handleOf, String zone) {
    this(snapshot, handleOf, zone, 0);
  }

  /**
   * @param snapshot the topology
   * @param handleOf the shared handle of a node (created on first sight)
   * @param zone the client's zone, or null
   * @param generation how many tables the dispatcher published before this one
   */
  RoutingTable(
      TopologySnapshot snapshot,
      Function<Node, NodeHandle> handleOf,
      String zone,
      long generation) {
    this.snapshot = snapshot;
    this.generation = generation;
    this.hasHeld = snapshot.hasHeldShards();
    int shards = snapshot.shardCount();
    this.leaders = new NodeHandle[shards];
    this.replicas = new NodeHandle[shards][];
    this.sameZone = new NodeHandle[shards][];
    Map<String, NodeHandle> leaderSet = new LinkedHashMap<>();
    Map<String, NodeHandle> all = new LinkedHashMap<>();
    for (int shard = 0; shard < shards; shard++) {
      ShardRoute route = snapshot.route(shard);
      if (!route.isAvailable()) {
        replicas[shard] = NONE;
        sameZone[shard] = NONE;
        continue;
      }
      NodeHandle leader = handleOf.apply(route.leader());
      leaders[shard] = leader;
      leaderSet.putIfAbsent(leader.identity(), leader);
      all.putIfAbsent(leader.identity(), leader);
      List<Node> replicaNodes = route.replicas();
      NodeHandle[] replicaHandles =
          replicaNodes.isEmpty() ? NONE : new NodeHandle[replicaNodes.size()];
      List<NodeHandle> local = new ArrayList<>();
      if (zone != null && zone.equals(route.leader().zone())) {
        local.add(leader);
      }
      for (int index = 0; index < replicaHandles.length; index++) {
        NodeHandle replica = handleOf.apply(replicaNodes.get(index));
        replicaHandles[index] = replica;
        all.putIfAbsent(replica.identity(), replica);
        if (zone != null && zone.equals(replicaNodes.get(index).zone())) {
          local.add(replica);
        }
      }
      replicas[shard] = replicaHandles;
      sameZone[shard] = local.isEmpty() ? NONE : local.toArray(NONE);
    }
    this.leaderNodes = leaderSet.values().toArray(NONE);
    this.allNodes = all.values().toArray(NONE);
    this.indexOf = new java.util.IdentityHashMap<>();
    for (int index = 0; index < allNodes.length; index++) {
      indexOf.put(allNodes[index], index);
    }
    this.byAddress = new LinkedHashMap<>();
    for (NodeHandle handle : allNodes) {
      byAddress.putIfAbsent(handle.node().address(), handle);
    }
  }

  /** How many tables the dispatcher published before this one. */
  long generation() {
    return generation;
  }

  /** Whether any shard is held (frozen for a cutover, under a live migration lock). */
  boolean hasHeld() {
    return hasHeld;
  }

  /** Whether requests to this shard's leader are held now. */
  boolean isHeld(int shard) {
    return hasHeld && snapshot.isHeld(shard);
  }

  public TopologySnapshot snapshot() {
    return snapshot;
  }

  public long revision() {
    return snapshot.revision();
  }

  /** The leader's handle, or null when the shard is unavailable. */
  public NodeHandle leader(int shard) {
    return leaders[shard];
  }

  /** Replicas of the shard, possibly empty. Do not modify. */
  public NodeHandle[] replicas(int shard) {
    return replicas[shard];
  }

  /** Every distinct leader, for broadcasts to leaders. Do not modify. */
  public NodeHandle[] leaderNodes() {
    return leaderNodes;
  }

  /** Every distinct node (leaders and replicas). Do not modify. */
  public NodeHandle[] allNodes() {
    return allNodes;
  }

  /** The position of a node in {@link #allNodes()}, or -1. */
  public int indexOf(NodeHandle node) {
    Integer index = indexOf.get(node);
    return index == null ? -1 : index;
  }

  /** The node at {@code host:port}, if the map has one. */
  public NodeHandle nodeAt(String address) {
    return byAddress.get(address);
  }

  /**
   * The node that serves a read of the shard under the policy, or null when the shard is
   * unavailable (or, for {@link ReadPolicy#REPLICA}, has no replica). No allocation, no lock.
   */
  public NodeHandle readTarget(int shard, ReadPolicy policy) {
    NodeHandle leader = leaders[shard];
    if (leader == null || policy == ReadPolicy.LEADER) {
      return leader;
    }
    NodeHandle[] followers = replicas[shard];
    switch (policy) {
      case LEADER:
        return leader;
      case LEADER_PREFERRED:
        if (!leader.looksUnreachable() || followers.length == 0) {
          return leader;
        }
        return reachable(followers, leader);
      case REPLICA:
        return followers.length == 0 ? null : reachable(followers, followers[0]);
      case REPLICA_PREFERRED:
        return followers.length == 0 ? leader : reachable(followers, leader);
      case NEAREST:
        NodeHandle[] local = sameZone[shard];
        return local.length == 0 ? leader : reachable(local, leader);
      case ANY:
        int pick = ThreadLocalRandom.current().nextInt(followers.length + 1);
        NodeHandle chosen = pick == followers.length ? leader : followers[pick];
        return chosen.looksUnreachable() ? leader : chosen;
      default:
        return leader;
    }
  }

  /** A random reachable node of the array, starting at a random place; else the fallback. */
  private static NodeHandle reachable(NodeHandle[] candidates, NodeHandle fallback) {
    int start = ThreadLocalRandom.current().nextInt(candidates.length);
    for (int offset = 0; offset < candidates.length; offset++) {
      NodeHandle candidate = candidates[(start + offset) % candidates.length];
      if (!candidate.looksUnreachable()) {
        return candidate;
      }
    }
    return fallback;
  }
}
