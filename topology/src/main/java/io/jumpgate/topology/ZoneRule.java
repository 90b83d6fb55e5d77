package io.jumpgate.topology;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the nodes of one shard spread over zones.
 *
 * <p>A shard of {@code size} nodes may put at most {@link #limit(int)} of them in one zone: the
 * smallest limit that the zones of the eligible nodes can meet. That is 1 (distinct zones) when
 * there are at least {@code size} zones, and otherwise as even a spread as the zone sizes allow
 * (with 5 nodes in az1 and 1 in az2, a shard of 3 nodes may have 2 in az1). Nodes without a zone
 * count as one zone together. A shard's {@linkplain #excess excess} is how many of its nodes are
 * over the limit; the planner never raises it when it has a choice.
 *
 * <p>Not thread-safe (limits are computed on first use); confined to one planning call.
 */
final class ZoneRule {

  /** The zone of the nodes that have none. */
  static final String NO_ZONE = "";

  private final Map<String, String> zones;
  private final Map<String, Integer> eligibleNodesPerZone = new HashMap<>();
  private final Map<Integer, Integer> limits = new HashMap<>();

  /**
   * @param zones the zone of every known node, {@link #NO_ZONE} for none
   * @param eligible the nodes a plan may give shards to: the limit counts their zones only
   */
  ZoneRule(Map<String, String> zones, Collection<String> eligible) {
    this.zones = Map.copyOf(zones);
    for (String nodeId : eligible) {
      eligibleNodesPerZone.merge(zone(nodeId), 1, Integer::sum);
    }
  }

  String zone(String nodeId) {
    return zones.getOrDefault(nodeId, NO_ZONE);
  }

  /** The most nodes of one zone that a shard of {@code size} nodes may have. */
  int limit(int size) {
    return limits.computeIfAbsent(size, this::computeLimit);
  }

  /** How many of these nodes are over the limit of a shard of {@code size} nodes. */
  int excess(Collection<String> members, int size) {
    int limit = limit(size);
    Map<String, Integer> perZone = new HashMap<>();
    int excess = 0;
    for (String member : members) {
      if (perZone.merge(zone(member), 1, Integer::sum) > limit) {
        excess++;
      }
    }
    return excess;
  }

  /** Whether replacing {@code from} by {@code to} among these nodes keeps or lowers the excess. */
  boolean replacementKeeps(List<String> members, String from, String to) {
    String fromZone = zone(from);
    String toZone = zone(to);
    if (fromZone.equals(toZone)) {
      return true;
    }
    int limit = limit(members.size());
    int inFromZone = 0;
    int inToZone = 0;
    for (String member : members) {
      String zone = zone(member);
      inFromZone += zone.equals(fromZone) ? 1 : 0;
      inToZone += zone.equals(toZone) ? 1 : 0;
    }
    // Leaving lowers the excess by one if the old zone was over the limit; joining raises it by one
    // if the new zone goes over it.
    return (inToZone + 1 > limit ? 1 : 0) <= (inFromZone > limit ? 1 : 0);
  }

  private int computeLimit(int size) {
    int largest = 1;
    for (int count : eligibleNodesPerZone.values()) {
      largest = Math.max(largest, count);
    }
    for (int limit = 1; limit < largest; limit++) {
      int capacity = 0;
      for (int count : eligibleNodesPerZone.values()) {
        capacity += Math.min(count, limit);
      }
      if (capacity >= size) {
        return limit;
      }
    }
    return largest;
  }
}
