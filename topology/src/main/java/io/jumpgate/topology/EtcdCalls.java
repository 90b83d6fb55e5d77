package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.TopologyAdminException.Reason;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The blocking etcd calls of the writers ({@link TopologyAdmin}, {@link MigrationStore}): each
 * bounded by {@link EtcdTopologyOptions#requestTimeout()}, with their failures turned into the
 * topology exceptions, and the compare-and-set building blocks. The calling thread waits; no
 * callback runs on a jetcd thread. Transactions are never retried (a retried compare-and-set would
 * lose against itself).
 *
 * <p>Thread-safe.
 */
final class EtcdCalls {

  private final EtcdTopologyOptions options;
  private final long timeoutNanos;

  EtcdCalls(EtcdTopologyOptions options) {
    this.options = options;
    this.timeoutNanos = options.requestTimeout().toNanos();
  }

  /** The request timeout, in nanoseconds. */
  long timeoutNanos() {
    return timeoutNanos;
  }

  /**
   * Waits for a read (or a lease call), bounded.
   *
   * @throws TopologyUnavailableException naming {@code what} when etcd does not answer in time,
   *     fails, or refuses access
   */
  <T> T read(CompletableFuture<T> call, String what) {
    try {
      return call.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new TopologyUnavailableException(what + " was interrupted", e);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new TopologyUnavailableException(
          what
              + ": no answer from etcd at "
              + options.endpointList()
              + " within "
              + options.requestTimeout().toMillis()
              + " ms",
          e);
    } catch (ExecutionException e) {
      throw unavailable(what, e.getCause());
    }
  }

  TopologyUnavailableException unavailable(String what, Throwable error) {
    if (EtcdClients.isAuthenticationFailure(error)) {
      return new TopologyUnavailableException(
          "etcd at "
              + options.endpointList()
              + " refused access to cluster '"
              + options.cluster()
              + "': authentication failed or permission denied ("
              + EtcdClients.describe(error)
              + ")",
          error);
    }
    return new TopologyUnavailableException(
        what + " failed: etcd at " + options.endpointList() + ": " + EtcdClients.describe(error),
        error);
  }

  /**
   * Commits one transaction, bounded; every failure but a definite refusal has an unknown outcome.
   *
   * @param which the transaction, for messages (e.g. "transaction 1 of 2 of move on cluster 'x'")
   * @param before added after {@code which} in failure messages (what was applied before it)
   * @param next added to the message of an unknown outcome: what the caller should do
   * @param readRevision the revision the exceptions carry
   * @param authenticationIsUnavailable whether an authentication failure throws {@link
   *     TopologyUnavailableException} (nothing was written yet) rather than a refusal
   * @throws TopologyAdminException with {@link Reason#REJECTED} or {@link Reason#OUTCOME_UNKNOWN}
   */
  TxnResponse commit(
      Txn txn,
      String which,
      String before,
      String next,
      long readRevision,
      boolean authenticationIsUnavailable) {
    CompletableFuture<TxnResponse> call = txn.commit();
    try {
      return call.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw unknownOutcome(which + " was interrupted" + before + next, readRevision, e);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw unknownOutcome(
          "no answer from etcd at "
              + options.endpointList()
              + " within "
              + options.requestTimeout().toMillis()
              + " ms to "
              + which
              + before
              + next,
          readRevision,
          e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (authenticationIsUnavailable && EtcdClients.isAuthenticationFailure(cause)) {
        throw unavailable(which, cause);
      }
      if (isRefusal(cause)) {
        throw new TopologyAdminException(
            Reason.REJECTED,
            readRevision,
            "etcd refused "
                + which
                + ": "
                + EtcdClients.describe(cause)
                + "; nothing of it was written"
                + before
                + (isTooLarge(cause)
                    ? "; lower maxOperationsPerTransaction or maxBytesPerTransaction to fit etcd's"
                        + " --max-txn-ops and --max-request-bytes"
                    : ""),
            cause);
      }
      throw unknownOutcome(
          which
              + " failed: etcd at "
              + options.endpointList()
              + ": "
              + EtcdClients.describe(cause)
              + before
              + next,
          readRevision,
          cause);
    }
  }

  private static TopologyAdminException unknownOutcome(
      String message, long readRevision, Throwable cause) {
    return new TopologyAdminException(Reason.OUTCOME_UNKNOWN, readRevision, message, cause);
  }

  /** etcd answered and refused the request itself: nothing was applied. */
  static boolean isRefusal(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      Status.Code code = null;
      if (cause instanceof EtcdException etcdError) {
        code = Status.Code.valueOf(etcdError.getErrorCode().name());
      } else if (cause instanceof StatusRuntimeException statusError) {
        code = statusError.getStatus().getCode();
      }
      if (code != null) {
        return code == Status.Code.INVALID_ARGUMENT
            || code == Status.Code.FAILED_PRECONDITION
            || code == Status.Code.OUT_OF_RANGE
            || code == Status.Code.RESOURCE_EXHAUSTED
            || code == Status.Code.PERMISSION_DENIED
            || code == Status.Code.UNAUTHENTICATED;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private static boolean isTooLarge(Throwable error) {
    String text = EtcdClients.describe(error);
    return text.contains("too many operations") || text.contains("too large");
  }

  /** The compare of a key write: its mod revision as read, or create revision 0 when absent. */
  static Cmp expected(KeyWrite write) {
    return modRevisionIs(write.key(), write.expectedModRevision());
  }

  /** {@code mod_revision(key) == revision}, or {@code create_revision(key) == 0} for 0. */
  static Cmp modRevisionIs(String key, long revision) {
    ByteSequence bytes = bytes(key);
    return revision == 0
        ? new Cmp(bytes, Cmp.Op.EQUAL, CmpTarget.createRevision(0))
        : new Cmp(bytes, Cmp.Op.EQUAL, CmpTarget.modRevision(revision));
  }

  /** The put or delete of a key write. */
  static Op operation(KeyWrite write) {
    ByteSequence key = bytes(write.key());
    return write.deletes()
        ? Op.delete(key, DeleteOption.DEFAULT)
        : Op.put(key, bytes(write.value()), PutOption.DEFAULT);
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
