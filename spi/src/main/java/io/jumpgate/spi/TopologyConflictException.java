package io.jumpgate.spi;

/**
 * An admin change lost its compare-and-set: the map changed since it was read. Nothing was written;
 * read again and retry.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class TopologyConflictException extends TopologyException {

  private static final long serialVersionUID = 1L;

  private final long readRevision;

  /**
   * @param readRevision the revision of the map the change was computed from
   */
  public TopologyConflictException(long readRevision) {
    super("the map changed since it was read (revision " + readRevision + "); run again");
    this.readRevision = readRevision;
  }

  /** The etcd revision the change was computed from. */
  public long readRevision() {
    return readRevision;
  }
}
