package io.jumpgate.topology;

import io.etcd.jetcd.Txn;
import io.etcd.jetcd.kv.TxnResponse;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.TopologyAdminException.Reason;
import java.util.concurrent.CompletableFuture;

/**
 * The error classification of {@link TopologyAdmin}: its bounded etcd calls ({@link EtcdCalls})
 * with each failure turned into the typed exception a caller acts on, and the words that tell an
 * operator what happened and what to do.
 *
 * <ul>
 *   <li>A read that fails, times out or is refused: {@link TopologyUnavailableException}, nothing
 *       was written.
 *   <li>A transaction etcd refused: {@link Reason#REJECTED}, nothing of it was written.
 *   <li>A transaction with no answer (timeout, lost connection, interrupt): {@link
 *       Reason#OUTCOME_UNKNOWN}; the message says how many earlier transactions were applied and
 *       what to run next. An authentication failure on the first transaction is unavailable.
 *   <li>The init protocol's outcomes: {@link #alreadyInitialised} and {@link #initInterrupted}.
 * </ul>
 *
 * <p>Transactions are never retried (a retried compare-and-set would lose against itself). The
 * calling thread waits, bounded by the request timeout. Thread-safe.
 */
final class AdminTransactions {

  private final TopologyKeys keys;
  private final TopologyAdminOptions adminOptions;
  private final EtcdCalls calls;

  AdminTransactions(
      TopologyKeys keys, TopologyAdminOptions adminOptions, EtcdTopologyOptions options) {
    this.keys = keys;
    this.adminOptions = adminOptions;
    this.calls = new EtcdCalls(options);
  }

  /** The request timeout, in nanoseconds. */
  long timeoutNanos() {
    return calls.timeoutNanos();
  }

  /**
   * Waits for a read (or a lease call), bounded.
   *
   * @throws TopologyUnavailableException naming {@code what}
   */
  <T> T read(CompletableFuture<T> call, String what) {
    return calls.read(call, what);
  }

  /** Commits one transaction of a change (not of init). */
  TxnResponse commit(Txn txn, String operation, long readRevision, int index, int transactions) {
    return commit(txn, operation, readRevision, index, transactions, false);
  }

  /**
   * Commits one transaction; every failure but a definite refusal has an unknown outcome.
   *
   * @param init whether it is a transaction of init, whose earlier transactions are invisible
   * @throws TopologyAdminException with {@link Reason#REJECTED} or {@link Reason#OUTCOME_UNKNOWN}
   */
  TxnResponse commit(
      Txn txn, String operation, long readRevision, int index, int transactions, boolean init) {
    String which =
        "transaction "
            + (index + 1)
            + " of "
            + transactions
            + " of "
            + operation
            + " on cluster '"
            + keys.cluster()
            + "'";
    String before =
        index == 0 || init ? "" : " (the " + index + " transaction(s) before it were applied)";
    String next =
        init
            ? ": it may or may not have been applied; if `jumpgate topology show` says the cluster"
                + " is not initialised, run init again (this init's lock is released, or expires"
                + " within "
                + adminOptions.initLockTtl().toSeconds()
                + " s)"
            : ": it may or may not have been applied; read the map (`jumpgate topology show`) and"
                + " plan again";
    return calls.commit(txn, which, before, next, readRevision, index == 0);
  }

  /** {@link Reason#ALREADY_INITIALISED}: meta exists, created at {@code revision}. */
  TopologyAdminException alreadyInitialised(long revision) {
    return new TopologyAdminException(
        Reason.ALREADY_INITIALISED,
        revision,
        "cluster '" + keys.cluster() + "' is already initialised (revision " + revision + ")",
        null);
  }

  /** {@link Reason#INIT_INTERRUPTED}: the init lock no longer holds this init's token. */
  TopologyAdminException initInterrupted(int committed, int transactions, long last) {
    return new TopologyAdminException(
        Reason.INIT_INTERRUPTED,
        last,
        "init of cluster '"
            + keys.cluster()
            + "' lost "
            + InitLockProtocol.lockKey(keys)
            + " after "
            + committed
            + " of "
            + transactions
            + " transactions (the lock expired or was deleted, and maybe another init took it):"
            + " the cluster is not initialised by this init; run `jumpgate init` again if it is"
            + " still not initialised",
        null);
  }
}
