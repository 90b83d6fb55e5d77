package io.jumpgate.topology;

import io.jumpgate.spi.TopologyException;

/**
 * A stored topology value (an etcd entry or a part of a topology file) is not valid: not JSON, a
 * field of the wrong type or out of range, a required field missing.
 *
 * <p>The message names the field and the value at fault, e.g. {@code "leader" is required} or
 * {@code port must be between 1 and 65535, was 70000}; it never holds more than a short excerpt of
 * the value. Sources do not let this exception escape: they report the entry in {@link
 * io.jumpgate.spi.TopologySnapshot#invalidEntries()} and keep the last valid value of the key.
 *
 * <p>Unchecked; immutable once thrown.
 */
public class TopologyEntryException extends TopologyException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what is wrong, naming the field and the value
   */
  public TopologyEntryException(String message) {
    super(message);
  }

  /**
   * @param message what is wrong, naming the field and the value
   * @param cause the parser's failure
   */
  public TopologyEntryException(String message, Throwable cause) {
    super(message, cause);
  }
}
