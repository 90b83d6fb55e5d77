package io.jumpgate.spi;

/**
 * Root of every exception that Jumpgate throws on purpose.
 *
 * <p>Unchecked, so that callers can catch one type for everything the driver reports. Subclasses
 * carry the context of the failure (shard, node, topology revision, attempts) as typed fields; do
 * not parse {@link #getMessage()}, its wording may change.
 *
 * <p>Instances are immutable once thrown and safe to pass between threads.
 */
public class JumpgateException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong, naming the value or resource at fault
   */
  public JumpgateException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, naming the value or resource at fault
   * @param cause the underlying failure, kept for diagnosis
   */
  public JumpgateException(String message, Throwable cause) {
    super(message, cause);
  }
}
