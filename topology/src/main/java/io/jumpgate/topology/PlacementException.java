package io.jumpgate.topology;

import io.jumpgate.spi.TopologyException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A placement request that the given shard map and node table cannot satisfy: too few nodes for the
 * replica count, an unknown node, an unassigned shard, a shard with no replica to promote, or a map
 * that changed since the plan was made.
 *
 * <p>The {@link PlacementPlanner} throws this type for every failure that depends on the topology.
 * Arguments that are wrong on their own (a negative shard or replica count, a shard count above
 * {@link io.jumpgate.spi.TopologyMetadata#MAX_SHARDS}, a map key that differs from the entry it
 * holds) raise {@link IllegalArgumentException}; null arguments raise {@link NullPointerException}.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class PlacementException extends TopologyException {

  private static final long serialVersionUID = 1L;

  private final int shard;
  private final String nodeId;

  /**
   * @param message what cannot be done and why, naming the shard and node at fault
   */
  public PlacementException(String message) {
    this(message, -1, null);
  }

  /**
   * @param message what cannot be done and why, naming the shard and node at fault
   * @param shard the shard at fault, or -1 when the failure is not about one shard
   * @param nodeId the node at fault, or null when the failure is not about one node
   */
  public PlacementException(String message, int shard, String nodeId) {
    super(message);
    this.shard = shard < 0 ? -1 : shard;
    this.nodeId = nodeId;
  }

  /** The shard at fault, when the failure is about one shard. */
  public OptionalInt shard() {
    return shard < 0 ? OptionalInt.empty() : OptionalInt.of(shard);
  }

  /** The node at fault, when the failure is about one node. */
  public Optional<String> nodeId() {
    return Optional.ofNullable(nodeId);
  }
}
