package io.jumpgate.driver;

/**
 * Which node of a shard serves a read. Writes always go to the shard's leader, whatever the policy.
 *
 * <p>Replicas of Redis replicate asynchronously: a read from a replica may miss a write the leader
 * already acknowledged. Use a replica policy only where that is acceptable.
 */
public enum ReadPolicy {
  /** Always the leader. The default: reads see every acknowledged write. */
  LEADER,
  /** The leader, or a replica while the leader cannot be reached. */
  LEADER_PREFERRED,
  /** Only replicas; fails when the shard has none that can be reached. */
  REPLICA,
  /** A replica, or the leader when no replica can be reached. */
  REPLICA_PREFERRED,
  /** A node in the client's zone (leader or replica), else the leader. */
  NEAREST,
  /** Any node of the shard, spreading reads over leader and replicas. */
  ANY
}
