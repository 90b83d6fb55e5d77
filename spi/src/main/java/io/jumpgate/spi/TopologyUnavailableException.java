package io.jumpgate.spi;

/**
 * No valid topology can be loaded
 *
 * <p>Unchecked; immutable once thrown.
 */
public class TopologyUnavailableException extends TopologyException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong, naming the resource and value at fault
   */
  public TopologyUnavailableException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, naming the resource and value at fault
   * @param cause the underlying failure
   */
  public TopologyUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
