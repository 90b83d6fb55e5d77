package io.jumpgate.topology.internal;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyEntryException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The node table in force: for every node key that exists, its current value if valid, else its
 * last valid value; plus the last known address of every node ever valid, for routes that still
 * name a deleted node.
 *
 * <p>Not thread-safe: confined to the topology thread with its {@link TopologyState}.
 */
final class NodeTable {

  private final Map<String, Node> inForce = new HashMap<>();
  private final Map<String, Node> lastKnown = new HashMap<>();
  private final Map<String, Node> inForceView = Collections.unmodifiableMap(inForce);

  /**
   * A node key was written.
   *
   * @return whether the node in force under this id changed
   */
  boolean put(String key, String nodeId, byte[] value, long modRevision, InvalidEntries invalid) {
    Node node;
    try {
      node = TopologyCodec.decodeNode(nodeId, value);
    } catch (TopologyEntryException e) {
      invalid.report(key, e.getMessage(), modRevision);
      return false; // the last valid value, if any, stays in force
    }
    invalid.clear(key);
    lastKnown.put(nodeId, node);
    return !node.equals(inForce.put(nodeId, node));
  }

  /**
   * A node key was deleted.
   *
   * @return whether a node in force went away
   */
  boolean delete(String key, String nodeId, InvalidEntries invalid) {
    invalid.clear(key);
    return inForce.remove(nodeId) != null;
  }

  /** Whether the node is in the table in force. */
  boolean contains(String nodeId) {
    return inForce.containsKey(nodeId);
  }

  /** The node in force, else its last known value, else null. */
  Node resolve(String nodeId) {
    Node node = inForce.get(nodeId);
    return node != null ? node : lastKnown.get(nodeId);
  }

  /** The table in force by id; a live, unmodifiable view. */
  Map<String, Node> inForce() {
    return inForceView;
  }
}
