package io.jumpgate.spi;

/**
 * The cluster's topology cannot be served by this client
 *
 * <p>Unchecked; immutable once thrown.
 */
public class IncompatibleTopologyException extends TopologyException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong, naming the resource and value at fault
   */
  public IncompatibleTopologyException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, naming the resource and value at fault
   * @param cause the underlying failure
   */
  public IncompatibleTopologyException(String message, Throwable cause) {
    super(message, cause);
  }
}
