package io.jumpgate.topology;

import io.jumpgate.spi.TopologyConflictException;
import java.util.Objects;

/**
 * A {@link MigrationStore} transaction lost its compare-and-set: a shard key, the migration record
 * or the migration lock was not as the caller read it. Nothing of that transaction was written. The
 * message says which compare lost, e.g. {@code cutover of migration 'm1' on cluster 'x' wrote
 * nothing: the migration lock was taken again (create revision 57, expected 41)}.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class MigrationConflictException extends TopologyConflictException {

  private static final long serialVersionUID = 1L;

  private final String detail;

  /**
   * @param readRevision the revision the losing transaction's expectations were read at (for a
   *     shard transaction, the highest mod revision it compared)
   * @param detail what lost, as a sentence naming the cluster, the keys and the revisions
   */
  public MigrationConflictException(long readRevision, String detail) {
    super(readRevision);
    this.detail = Objects.requireNonNull(detail, "detail");
  }

  @Override
  public String getMessage() {
    return detail;
  }
}
