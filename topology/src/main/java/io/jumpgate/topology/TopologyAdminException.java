package io.jumpgate.topology;

import io.jumpgate.spi.TopologyException;
import java.util.Objects;

/**
 * A {@link TopologyAdmin} write that cannot be done or whose outcome is unknown, with the reason as
 * a type a program can switch on. A lost compare-and-set is not one of these: it is a {@link
 * io.jumpgate.spi.TopologyConflictException} (see {@link TopologyAdminConflictException}).
 *
 * <p>Unchecked; immutable once thrown.
 */
public class TopologyAdminException extends TopologyException {

  private static final long serialVersionUID = 1L;

  /** Why the write failed. */
  public enum Reason {
    /**
     * {@code init} found {@code <root>/meta}: the cluster exists. {@link #revision()} is the
     * revision that created the meta.
     */
    ALREADY_INITIALISED,
    /**
     * {@code init} found {@code <root>/init-lock}: another init is writing the cluster, or one
     * crashed and its lock has not expired yet. {@link #revision()} is the revision of the lock.
     */
    INIT_IN_PROGRESS,
    /**
     * {@code init} lost its lock while writing (it expired or someone deleted it): the cluster is
     * not initialised, and what it wrote is removed by the next init. {@link #revision()} is the
     * last revision it wrote.
     */
    INIT_INTERRUPTED,
    /**
     * etcd did not answer a transaction in time, or the connection broke while it was under way: it
     * may or may not have been applied. Read the map to find out. {@link #revision()} is the
     * revision the change was planned at.
     */
    OUTCOME_UNKNOWN,
    /**
     * etcd refused a transaction as a request (too many operations, too large, ...): nothing of it
     * was written. {@link #revision()} is the revision the change was planned at.
     */
    REJECTED
  }

  private final Reason reason;
  private final long revision;

  /**
   * @param reason why
   * @param revision the revision the reason names (see {@link Reason})
   * @param message what went wrong, naming the cluster and what to do
   * @param cause the underlying failure, or null
   */
  public TopologyAdminException(Reason reason, long revision, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.revision = revision;
  }

  /** Why the write failed. */
  public Reason reason() {
    return reason;
  }

  /** The etcd revision the reason names; see each {@link Reason}. */
  public long revision() {
    return revision;
  }
}
