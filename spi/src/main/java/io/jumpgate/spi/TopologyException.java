package io.jumpgate.spi;

/**
 * A failure to read, watch or change a cluster's topology.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class TopologyException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong, naming the resource and value at fault
   */
  public TopologyException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, naming the resource and value at fault
   * @param cause the underlying failure
   */
  public TopologyException(String message, Throwable cause) {
    super(message, cause);
  }
}
