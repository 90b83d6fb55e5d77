package io.jumpgate.topology;

import java.util.Objects;

/**
 * A shard's entry as read from etcd, with the key it is stored at and the mod revision it was read
 * at: what a {@link MigrationStore} transaction compares. Every shard transaction of the store
 * returns the entries it wrote, at the transaction's revision, ready for the next one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param key the etcd key (readers accept any padding of the shard id; writes go to this key)
 * @param assignment the decoded entry
 * @param modRevision the mod revision of the key as read, at least 1
 */
public record StoredShard(String key, ShardAssignment assignment, long modRevision) {

  /**
   * @throws IllegalArgumentException if the mod revision is below 1
   */
  public StoredShard {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(assignment, "assignment");
    if (modRevision < 1) {
      throw new IllegalArgumentException(
          "mod revision of " + key + " must be at least 1, was " + modRevision);
    }
  }

  /** The shard id. */
  public int shard() {
    return assignment.shard();
  }
}
