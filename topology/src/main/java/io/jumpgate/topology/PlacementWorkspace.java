package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The working copy of a shard map during one planning call: who leads and replicates each shard,
 * with per-node counts and indexes kept up to date on every change, and the {@link ZoneRule}.
 *
 * <p>Not thread-safe: each planning call makes its own workspace and drops it. The input maps are
 * copied and never modified; {@link PlanAssembler} turns the final state into a plan.
 */
final class PlacementWorkspace {

  private final Map<String, String> zones = new HashMap<>();
  private final List<String> eligible;
  private final Set<String> eligibleSet;
  private final SortedSet<String> known = new TreeSet<>();
  private final ZoneRule zoneRule;
  private final SortedMap<Integer, ShardAssignment> original = new TreeMap<>();
  private final TreeMap<Integer, String> leaders = new TreeMap<>();
  private final Map<Integer, List<String>> replicas = new HashMap<>();
  private final Map<String, TreeSet<Integer>> led = new HashMap<>();
  private final Map<String, TreeSet<Integer>> replicated = new HashMap<>();
  private final Map<String, Map<String, Integer>> pairs = new HashMap<>();
  private final SortedSet<Integer> shardsShortOfReplicas = new TreeSet<>();

  /**
   * @param nodes the node table by node id
   * @param current the shard map by shard id; missing shards are unassigned
   * @param exempt nodes that the plan takes shards from and never gives shards to (a node being
   *     removed or failed over); the map may reference them even if the node table does not list
   *     them
   * @throws PlacementException if the map references a node that is neither listed nor exempt
   */
  PlacementWorkspace(
      Map<String, Node> nodes, Map<Integer, ShardAssignment> current, Set<String> exempt) {
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(current, "current");
    TreeSet<String> eligibleIds = new TreeSet<>();
    nodes.forEach(
        (nodeId, node) -> {
          Objects.requireNonNull(nodeId, "node id");
          Objects.requireNonNull(node, "node");
          if (!nodeId.equals(node.id())) {
            throw new IllegalArgumentException(
                "the node table maps id '" + nodeId + "' to node '" + node.id() + "'");
          }
          zones.put(nodeId, node.zone() == null ? ZoneRule.NO_ZONE : node.zone());
          known.add(nodeId);
          if (!exempt.contains(nodeId)) {
            eligibleIds.add(nodeId);
          }
        });
    this.eligible = List.copyOf(eligibleIds);
    this.eligibleSet = Set.copyOf(eligibleIds);
    current.forEach(
        (shard, assignment) -> {
          Objects.requireNonNull(shard, "shard");
          Objects.requireNonNull(assignment, "assignment");
          if (shard != assignment.shard()) {
            throw new IllegalArgumentException(
                "the shard map maps shard "
                    + shard
                    + " to the entry of shard "
                    + assignment.shard());
          }
          for (String member : membersOf(assignment.leader(), assignment.replicas())) {
            if (!nodes.containsKey(member) && !exempt.contains(member)) {
              throw new PlacementException(
                  "shard "
                      + shard
                      + " references node '"
                      + member
                      + "', which is not in the node table; add the node or remove it from the"
                      + " map first",
                  shard,
                  member);
            }
            zones.putIfAbsent(member, ZoneRule.NO_ZONE);
            known.add(member);
          }
          original.put(shard, assignment);
          assign(shard, assignment.leader(), assignment.replicas());
        });
    this.zoneRule = new ZoneRule(zones, eligible);
  }

  /** Ids of the nodes the plan may give shards to, sorted. */
  List<String> eligibleNodes() {
    return eligible;
  }

  boolean isEligible(String nodeId) {
    return eligibleSet.contains(nodeId);
  }

  /** Whether the node is listed in the node table or referenced by the map. */
  boolean isKnown(String nodeId) {
    return known.contains(nodeId);
  }

  String zone(String nodeId) {
    return zoneRule.zone(nodeId);
  }

  /** Ids of the assigned shards, ascending; a copy. */
  List<Integer> assignedShards() {
    return new ArrayList<>(leaders.keySet());
  }

  boolean isAssigned(int shard) {
    return leaders.containsKey(shard);
  }

  String leaderOf(int shard) {
    return leaders.get(shard);
  }

  /** The shard's replicas, in order; unmodifiable. */
  List<String> replicasOf(int shard) {
    return replicas.get(shard);
  }

  /** The leader, then the replicas. */
  List<String> membersOf(int shard) {
    return membersOf(leaders.get(shard), replicas.get(shard));
  }

  boolean involves(int shard, String nodeId) {
    return nodeId.equals(leaders.get(shard)) || replicas.get(shard).contains(nodeId);
  }

  int leaderCount(String nodeId) {
    TreeSet<Integer> shards = led.get(nodeId);
    return shards == null ? 0 : shards.size();
  }

  int replicaCount(String nodeId) {
    TreeSet<Integer> shards = replicated.get(nodeId);
    return shards == null ? 0 : shards.size();
  }

  /** The shards the node leads, ascending; a copy, safe to iterate while changing the map. */
  List<Integer> shardsLedBy(String nodeId) {
    return new ArrayList<>(led.getOrDefault(nodeId, new TreeSet<>()));
  }

  /** The shards the node replicates, ascending; a copy, safe to iterate while changing the map. */
  List<Integer> shardsReplicatedBy(String nodeId) {
    return new ArrayList<>(replicated.getOrDefault(nodeId, new TreeSet<>()));
  }

  /** The smallest shard at or above {@code fromShard} that the node replicates, or null. */
  Integer nextShardReplicatedBy(String nodeId, int fromShard) {
    TreeSet<Integer> shards = replicated.get(nodeId);
    return shards == null ? null : shards.ceiling(fromShard);
  }

  /** How many of these nodes are over the zone limit of a shard of {@code size} nodes. */
  int zoneExcess(Collection<String> members, int size) {
    return zoneRule.excess(members, size);
  }

  /**
   * Whether replacing {@code from} by {@code to} in the shard keeps its zone excess or lowers it.
   */
  boolean replacementKeepsZones(int shard, String from, String to) {
    return zoneRule.replacementKeeps(membersOf(shard), from, to);
  }

  /**
   * The eligible node outside the shard that best takes one more replica slot of it, or null if
   * there is none. Best: the lowest zone excess of the shard with it, counted for a shard of {@code
   * targetSize} nodes; then the fewest replica memberships; then the fewest shards of this shard's
   * leader that it already replicates (so that a node's leaderships fail over to many different
   * nodes); then the fewest leaderships; then the smallest node id.
   */
  String bestNewReplica(int shard, int targetSize, Set<String> excluded) {
    List<String> members = membersOf(shard);
    int limit = zoneRule.limit(targetSize);
    Map<String, Integer> perZone = new HashMap<>();
    for (String member : members) {
      perZone.merge(zone(member), 1, Integer::sum);
    }
    String best = null;
    long bestKey = Long.MAX_VALUE;
    for (String candidate : eligible) {
      if (members.contains(candidate) || excluded.contains(candidate)) {
        continue;
      }
      int overLimit = perZone.getOrDefault(zone(candidate), 0) + 1 > limit ? 1 : 0;
      long key =
          ((long) overLimit << 62)
              | ((long) replicaCount(candidate) << 40)
              | ((long) pairCount(members.get(0), candidate) << 20)
              | (long) leaderCount(candidate);
      if (key < bestKey) {
        best = candidate;
        bestKey = key;
      }
    }
    return best;
  }

  /** Sets the shard's leader and replicas, keeping every count and index up to date. */
  void assign(int shard, String leader, List<String> newReplicas) {
    List<String> copy = List.copyOf(newReplicas);
    if (copy.contains(leader) || Set.copyOf(copy).size() != copy.size()) {
      throw new IllegalStateException(
          "planner bug: shard " + shard + " would get leader " + leader + " and replicas " + copy);
    }
    String oldLeader = leaders.get(shard);
    if (oldLeader != null) {
      led.get(oldLeader).remove(shard);
      for (String replica : replicas.get(shard)) {
        replicated.get(replica).remove(shard);
        changePairCount(oldLeader, replica, -1);
      }
    }
    leaders.put(shard, leader);
    replicas.put(shard, copy);
    led.computeIfAbsent(leader, id -> new TreeSet<>()).add(shard);
    for (String replica : copy) {
      replicated.computeIfAbsent(replica, id -> new TreeSet<>()).add(shard);
      changePairCount(leader, replica, 1);
    }
  }

  void addReplica(int shard, String nodeId) {
    List<String> changed = new ArrayList<>(replicas.get(shard));
    changed.add(nodeId);
    assign(shard, leaders.get(shard), changed);
  }

  /** {@code to} takes the replica slot of {@code from}, at the same position. */
  void replaceReplica(int shard, String from, String to) {
    List<String> changed = new ArrayList<>(replicas.get(shard));
    changed.set(changed.indexOf(from), to);
    assign(shard, leaders.get(shard), changed);
  }

  /** The replica becomes the leader; the old leader takes its replica slot. */
  void swapLeader(int shard, String replica) {
    List<String> changed = new ArrayList<>(replicas.get(shard));
    changed.set(changed.indexOf(replica), leaders.get(shard));
    assign(shard, replica, changed);
  }

  /**
   * The replica becomes the leader; the old leader leaves the shard, which has one replica less.
   */
  void promoteReplica(int shard, String replica) {
    List<String> changed = new ArrayList<>(replicas.get(shard));
    changed.remove(replica);
    assign(shard, replica, changed);
  }

  /** A node outside the shard becomes its leader; the old leader leaves, the replicas stay. */
  void replaceLeader(int shard, String nodeId) {
    assign(shard, nodeId, replicas.get(shard));
  }

  /** Records that the shard keeps one replica less because no eligible node can take one. */
  void replicaLost(int shard) {
    shardsShortOfReplicas.add(shard);
  }

  /** The assignments the planning started from, by shard id; unmodifiable. */
  SortedMap<Integer, ShardAssignment> originalAssignments() {
    return Collections.unmodifiableSortedMap(original);
  }

  /** Every node of the node table and every node the map references, sorted; unmodifiable. */
  SortedSet<String> knownNodes() {
    return Collections.unmodifiableSortedSet(known);
  }

  /** The shards recorded by {@link #replicaLost}, ascending; unmodifiable. */
  SortedSet<Integer> shardsShortOfReplicas() {
    return Collections.unmodifiableSortedSet(shardsShortOfReplicas);
  }

  /** How many shards that {@code leader} leads have {@code replica} as a replica. */
  int pairCount(String leader, String replica) {
    return pairs.getOrDefault(leader, Map.of()).getOrDefault(replica, 0);
  }

  private void changePairCount(String leader, String replica, int change) {
    pairs.computeIfAbsent(leader, id -> new HashMap<>()).merge(replica, change, Integer::sum);
  }

  private static List<String> membersOf(String leader, List<String> replicas) {
    List<String> members = new ArrayList<>(replicas.size() + 1);
    members.add(leader);
    members.addAll(replicas);
    return members;
  }
}
