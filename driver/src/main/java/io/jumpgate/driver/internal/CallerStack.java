package io.jumpgate.driver.internal;

/**
 * The calling thread's stack, added as a suppressed entry to an exception that was made on an
 * internal thread (the topology thread) and is rethrown to the caller, so that its stack trace
 * shows the caller's line as well. Never thrown itself.
 *
 * <p>Immutable; made on the thread that rethrows.
 */
public final class CallerStack extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param what what the caller was doing, e.g. {@code "JumpgateClient.create"}
   */
  public CallerStack(String what) {
    super("rethrown to the caller of " + what + " on thread " + Thread.currentThread().getName());
  }

  /** Adds the current thread's stack to {@code error} and returns it. */
  public static <T extends Throwable> T addTo(T error, String what) {
    error.addSuppressed(new CallerStack(what));
    return error;
  }
}
