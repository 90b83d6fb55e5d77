package io.jumpgate.migration;

/**
 * The source refuses to switch on keyspace notifications ({@code CONFIG SET} or {@code CONFIG} is
 * disabled or not allowed for the user): nothing was changed on either server. The message names
 * the exact setting to make; {@link #requiredSetting()} gives the value.
 *
 * <p>Immutable and safe to pass between threads.
 */
public final class ChangeCaptureUnavailableException extends MigrationException {

  private static final long serialVersionUID = 1L;

  private final String requiredSetting;

  public ChangeCaptureUnavailableException(
      String message, String requiredSetting, Throwable cause) {
    super(message, cause);
    this.requiredSetting = requiredSetting;
  }

  /** The {@code notify-keyspace-events} value the source needs, for example {@code KA}. */
  public String requiredSetting() {
    return requiredSetting;
  }
}
