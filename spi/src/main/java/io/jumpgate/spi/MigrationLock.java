package io.jumpgate.spi;

import java.util.Objects;

/**
 * The cluster's migration lock, {@code <root>/migration-lock}: which migration a mover is running,
 * held with the mover's etcd lease. A freeze holds only while this lock exists and names the
 * shard's migration (see {@link TopologySnapshot#isHeld(int)}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param migrationId the migration the lock is held for ({@link ShardMigration#ID_PATTERN})
 * @param owner who holds it, by convention {@code host:pid}
 * @param since when it was taken, as the mover wrote it (ISO-8601 by convention)
 * @param createRevision the etcd revision that created the key: a lock taken again (after its lease
 *     expired) has another one, and the cutover compares it; for a file source, the revision of the
 *     load that first read it
 */
public record MigrationLock(String migrationId, String owner, String since, long createRevision) {

  /**
   * @throws IllegalArgumentException if the migration id does not match {@link
   *     ShardMigration#ID_PATTERN} or the create revision is negative
   */
  public MigrationLock {
    Objects.requireNonNull(migrationId, "migrationId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(since, "since");
    if (!ShardMigration.ID_PATTERN.matcher(migrationId).matches()) {
      throw new IllegalArgumentException(
          "migration id must match "
              + ShardMigration.ID_PATTERN.pattern()
              + ", was '"
              + migrationId
              + "'");
    }
    if (createRevision < 0) {
      throw new IllegalArgumentException(
          "createRevision must be at least 0, was " + createRevision);
    }
  }
}
