package io.jumpgate.cli;

/**
 * The exit codes of every {@code jumpgate} verb.
 *
 * <p>Constants only; nothing to share or synchronize.
 */
public final class ExitCodes {

  /** The verb did what was asked. */
  public static final int OK = 0;

  /**
   * The operation failed: a cluster or file could not be read, a check found a problem, or the CLI
   * hit a bug. The one-line message on stderr says which.
   */
  public static final int FAILURE = 1;

  /** The command line is wrong: unknown verb or option, or a bad or missing argument. */
  public static final int USAGE = 2;

  private ExitCodes() {}
}
