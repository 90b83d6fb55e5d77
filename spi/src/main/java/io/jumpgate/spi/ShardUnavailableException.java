package io.jumpgate.spi;

/**
 * A request was for a shard that has no valid assignment in the topology in force. Nothing was
 * sent.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class ShardUnavailableException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  private final int shard;
  private final long revision;
  private final String reason;

  /**
   * @param shard the shard asked for
   * @param revision the revision of the topology in force
   * @param reason why the shard has no route
   */
  public ShardUnavailableException(int shard, long revision, String reason) {
    super("shard " + shard + " is unavailable at topology revision " + revision + ": " + reason);
    this.shard = shard;
    this.revision = revision;
    this.reason = reason;
  }

  /** The shard asked for. */
  public int shard() {
    return shard;
  }

  /** The revision of the topology in force. */
  public long revision() {
    return revision;
  }

  /** Why the shard has no route. */
  public String reason() {
    return reason;
  }
}
