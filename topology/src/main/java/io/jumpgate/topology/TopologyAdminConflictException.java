package io.jumpgate.topology;

import io.jumpgate.spi.TopologyConflictException;

/**
 * A {@link TopologyAdmin} change lost a compare-and-set: a key it rewrites changed since the map
 * was read. The transaction that lost wrote nothing.
 *
 * <p>A plan written in one transaction (most plans) then changed nothing at all, and the message is
 * exactly "the map changed since it was read (revision R); run again". A plan too large for one
 * transaction is written in several, in order; when a later one loses, the earlier ones stay
 * applied: {@link #appliedTransactions()} says how many, and the message adds it. Each applied
 * transaction left a valid map, and planning and applying again finishes the change.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class TopologyAdminConflictException extends TopologyConflictException {

  private static final long serialVersionUID = 1L;

  private final int appliedTransactions;
  private final int transactions;
  private final long appliedRevision;

  /**
   * @param readRevision the map revision the change was planned at ({@link
   *     TopologyAdminPlan#mapRevision()})
   * @param appliedTransactions how many transactions of the change had been applied, 0 when none
   * @param transactions how many transactions the change has in all
   * @param appliedRevision the revision of the last applied transaction, or {@code readRevision}
   *     when none was applied
   */
  public TopologyAdminConflictException(
      long readRevision, int appliedTransactions, int transactions, long appliedRevision) {
    super(readRevision);
    this.appliedTransactions = appliedTransactions;
    this.transactions = transactions;
    this.appliedRevision = appliedRevision;
  }

  /** How many transactions of the change were applied before the one that lost; 0 when none. */
  public int appliedTransactions() {
    return appliedTransactions;
  }

  /** How many transactions the change has in all. */
  public int transactions() {
    return transactions;
  }

  /** The revision of the last applied transaction, or the read revision when none was. */
  public long appliedRevision() {
    return appliedRevision;
  }

  @Override
  public String getMessage() {
    String message = super.getMessage();
    if (appliedTransactions == 0) {
      return message;
    }
    return message
        + " ("
        + appliedTransactions
        + " of its "
        + transactions
        + " transactions were applied, up to revision "
        + appliedRevision
        + "; running it again finishes the change)";
  }
}
