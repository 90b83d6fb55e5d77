package io.jumpgate.spi;

/**
 * The state of a shard's assignment (the topology contract's {@code state} field).
 *
 * <p>A shard goes {@link #ACTIVE} -> {@link #MIGRATING} -> {@link #FROZEN} -> {@link #ACTIVE} on
 * its new leader while a mover copies its data (see the Migration section of docs/topology.md).
 * What a client does with each:
 *
 * <ul>
 *   <li>{@link #ACTIVE} and {@link #MIGRATING}: route everything to the leader.
 *   <li>{@link #FROZEN}: hold new requests for the shard (bounded) while the freeze is valid, that
 *       is while the cluster's migration lock exists and names the shard's migration id ({@link
 *       TopologySnapshot#isHeld(int)}). A frozen shard without such a lock (the mover died and its
 *       lease expired) is served as {@link #ACTIVE} on its current leader, which still holds the
 *       data.
 * </ul>
 *
 * <p>A {@link ShardRoute} in {@link #MIGRATING} or {@link #FROZEN} read from a topology store
 * always has a {@link ShardRoute#migration()}: an entry without one is invalid.
 */
public enum ShardState {
  /** Serving normally. The default. */
  ACTIVE("active"),
  /** A mover is copying the shard's data to the migration's target; routed as {@link #ACTIVE}. */
  MIGRATING("migrating"),
  /** A mover is switching the shard over: clients hold its requests while the freeze is valid. */
  FROZEN("frozen");

  private final String wireName;

  ShardState(String wireName) {
    this.wireName = wireName;
  }

  /** The name stored in etcd ({@code "active"}, {@code "migrating"}, {@code "frozen"}). */
  public String wireName() {
    return wireName;
  }

  /**
   * The state with this stored name.
   *
   * @throws IllegalArgumentException naming the value, when it is not a known state
   */
  public static ShardState fromWireName(String name) {
    for (ShardState state : values()) {
      if (state.wireName.equals(name)) {
        return state;
      }
    }
    throw new IllegalArgumentException(
        "shard state must be \"active\", \"migrating\" or \"frozen\", was \"" + name + "\"");
  }
}
