package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.Node;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/** Node tables, shard maps and invariant checks shared by the placement tests. */
final class PlacementFixtures {

  private PlacementFixtures() {}

  /** {@code count} nodes {@code node-00, node-01, ...}; zone {@code az<i mod zones>}, none if 0. */
  static Map<String, Node> nodes(int count, int zones) {
    Map<String, Node> nodes = new TreeMap<>();
    for (int index = 0; index < count; index++) {
      nodes.put(nodeId(index), node(nodeId(index), zones == 0 ? null : "az" + index % zones));
    }
    return nodes;
  }

  static String nodeId(int index) {
    return String.format("node-%02d", index);
  }

  static Node node(String id, String zone) {
    return new Node(id, "10.0.0.1", 6379, zone, Map.of(), false);
  }

  static Map<String, Node> with(Map<String, Node> nodes, Node node) {
    Map<String, Node> copy = new TreeMap<>(nodes);
    copy.put(node.id(), node);
    return copy;
  }

  /** A map of random but valid assignments: random leaders and replicas, random epochs. */
  static Map<Integer, ShardAssignment> randomMap(
      Random random, List<String> nodeIds, int shards, int replicas) {
    Map<Integer, ShardAssignment> map = new TreeMap<>();
    for (int shard = 0; shard < shards; shard++) {
      List<String> shuffled = new ArrayList<>(nodeIds);
      Collections.shuffle(shuffled, random);
      map.put(
          shard,
          ShardAssignment.of(
              shard, shuffled.get(0), shuffled.subList(1, replicas + 1), random.nextInt(10)));
    }
    return map;
  }

  static Map<String, Integer> leaderCounts(Map<Integer, ShardAssignment> map, Set<String> nodes) {
    Map<String, Integer> counts = zeroCounts(nodes);
    map.values().forEach(assignment -> counts.merge(assignment.leader(), 1, Integer::sum));
    return counts;
  }

  static Map<String, Integer> replicaCounts(Map<Integer, ShardAssignment> map, Set<String> nodes) {
    Map<String, Integer> counts = zeroCounts(nodes);
    map.values()
        .forEach(a -> a.replicas().forEach(replica -> counts.merge(replica, 1, Integer::sum)));
    return counts;
  }

  static int spread(Map<String, Integer> counts) {
    return Collections.max(counts.values()) - Collections.min(counts.values());
  }

  /** The number of distinct zones, nodes without a zone counting as one. */
  static int zoneCount(Map<String, Node> nodes) {
    Set<String> zones = new HashSet<>();
    nodes.values().forEach(node -> zones.add(node.zone() == null ? "" : node.zone()));
    return zones.size();
  }

  /**
   * Asserts that every shard in {@code 0..shards-1} is assigned to listed nodes with R replicas.
   */
  static void assertComplete(
      Map<Integer, ShardAssignment> map, Map<String, Node> nodes, int shards, int replicas) {
    assertThat(map).hasSize(shards);
    for (int shard = 0; shard < shards; shard++) {
      ShardAssignment assignment = map.get(shard);
      assertThat(assignment).as("shard %d", shard).isNotNull();
      assertThat(assignment.shard()).isEqualTo(shard);
      assertThat(assignment.replicas()).as("replicas of shard %d", shard).hasSize(replicas);
      assertThat(nodes).containsKey(assignment.leader());
      assertThat(nodes.keySet()).containsAll(assignment.replicas());
    }
  }

  /** Asserts that every shard's nodes are in distinct zones. */
  static void assertDistinctZones(Map<Integer, ShardAssignment> map, Map<String, Node> nodes) {
    for (ShardAssignment assignment : map.values()) {
      assertThat(zonesOf(assignment, nodes))
          .as("zones of shard %d", assignment.shard())
          .doesNotHaveDuplicates();
    }
  }

  /** The zones of the shard's nodes, leader first; "" for a node without zone. */
  static List<String> zonesOf(ShardAssignment assignment, Map<String, Node> nodes) {
    List<String> zones = new ArrayList<>();
    zones.add(zoneOf(nodes.get(assignment.leader())));
    assignment.replicas().forEach(replica -> zones.add(zoneOf(nodes.get(replica))));
    return zones;
  }

  /** The most nodes of the shard in one zone. */
  static int mostInOneZone(ShardAssignment assignment, Map<String, Node> nodes) {
    Map<String, Integer> perZone = new HashMap<>();
    zonesOf(assignment, nodes).forEach(zone -> perZone.merge(zone, 1, Integer::sum));
    return Collections.max(perZone.values());
  }

  /**
   * The most nodes of one zone a shard of {@code size} nodes needs: the smallest limit that the
   * zones' sizes can meet.
   */
  static int zoneLimit(Map<String, Node> nodes, int size) {
    Map<String, Integer> perZone = new HashMap<>();
    nodes.values().forEach(node -> perZone.merge(zoneOf(node), 1, Integer::sum));
    for (int limit = 1; ; limit++) {
      int capacity = 0;
      for (int count : perZone.values()) {
        capacity += Math.min(count, limit);
      }
      if (capacity >= size || limit >= Collections.max(perZone.values())) {
        return limit;
      }
    }
  }

  /** Asserts the epoch rule: +1 exactly when the leader changes, 0 for a new shard. */
  static void assertEpochRule(Plan plan) {
    for (PlanStep step : plan.steps()) {
      if (step.before() == null) {
        assertThat(step.after().epoch()).as("epoch of new shard %d", step.shard()).isZero();
      } else if (step.leaderChanged()) {
        assertThat(step.after().epoch())
            .as("epoch of shard %d", step.shard())
            .isEqualTo(step.before().epoch() + 1);
      } else {
        assertThat(step.after().epoch())
            .as("epoch of shard %d", step.shard())
            .isEqualTo(step.before().epoch());
      }
    }
  }

  private static String zoneOf(Node node) {
    return node.zone() == null ? "" : node.zone();
  }

  private static Map<String, Integer> zeroCounts(Set<String> nodes) {
    Map<String, Integer> counts = new TreeMap<>();
    nodes.forEach(node -> counts.put(node, 0));
    return counts;
  }
}
