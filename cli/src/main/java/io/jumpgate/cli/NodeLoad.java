package io.jumpgate.cli;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How many shards each node leads and replicates in a snapshot: the nodes of the node table, and
 * the nodes that routes still name after they left it (with their last known address).
 *
 * <p>Stateless and thread-safe.
 */
final class NodeLoad {

  /**
   * One node's load.
   *
   * @param node the node (for a node no longer in the node table: its last known address)
   * @param inNodeTable whether the node table has a valid entry for it
   * @param leaders shards it leads
   * @param replicas shards it replicates
   */
  record Load(Node node, boolean inNodeTable, int leaders, int replicas) {

    Load plusLeader() {
      return new Load(node, inNodeTable, leaders + 1, replicas);
    }

    Load plusReplica() {
      return new Load(node, inNodeTable, leaders, replicas + 1);
    }
  }

  private NodeLoad() {}

  /** Every node's load, by node id; unmodifiable. */
  static SortedMap<String, Load> of(TopologySnapshot snapshot) {
    SortedMap<String, Load> loads = new TreeMap<>();
    for (Node node : snapshot.nodes().values()) {
      loads.put(node.id(), new Load(node, true, 0, 0));
    }
    for (ShardRoute route : snapshot.routes()) {
      if (!route.isAvailable()) {
        continue;
      }
      loads.compute(
          route.leader().id(), (id, load) -> orRemoved(load, route.leader()).plusLeader());
      for (Node replica : route.replicas()) {
        loads.compute(replica.id(), (id, load) -> orRemoved(load, replica).plusReplica());
      }
    }
    return Collections.unmodifiableSortedMap(loads);
  }

  private static Load orRemoved(Load load, Node node) {
    return load != null ? load : new Load(node, false, 0, 0);
  }
}
