package io.jumpgate.spi;

/**
 * The state of a shard's assignment.
 *
 * <p>Format 1 readers that do not buffer requests during a planned cutover treat {@link #FROZEN} as
 * {@link #ACTIVE}; so does this driver today.
 */
public enum ShardState {
  /** Serving normally. The default. */
  ACTIVE("active"),
  /** A planned cutover is in progress. */
  FROZEN("frozen");

  private final String wireName;

  ShardState(String wireName) {
    this.wireName = wireName;
  }

  /** The name stored in etcd ({@code "active"}, {@code "frozen"}). */
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
        "shard state must be \"active\" or \"frozen\", was \"" + name + "\"");
  }
}
