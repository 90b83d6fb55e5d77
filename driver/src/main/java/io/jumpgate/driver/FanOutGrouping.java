package io.jumpgate.driver;

/** How multi-key commands (MGET, MSET, DEL, ...) are split. */
public enum FanOutGrouping {
  /** One sub-command per node, holding the keys of every shard that node leads. The default. */
  BY_NODE,
  /**
   * One sub-command per shard: for servers that refuse a multi-key command whose keys span shards.
   */
  BY_SHARD
}
