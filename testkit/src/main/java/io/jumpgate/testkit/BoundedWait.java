package io.jumpgate.testkit;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes: the testkit's only way to wait for
 * something (no fixed sleeps). A {@link LocalClusterException} thrown by the condition aborts the
 * wait at once (e.g. "the process died"); any other exception counts as "not yet" and is named in
 * the failure if the deadline passes.
 *
 * <p>Stateless and thread-safe; the calling thread sleeps {@value #INTERVAL_MILLIS} ms between
 * polls and never waits past the timeout plus one poll.
 */
public final class BoundedWait {

  /** The pause between two polls, in milliseconds. */
  public static final long INTERVAL_MILLIS = 50;

  private BoundedWait() {}

  /**
   * Waits until {@code condition} returns true.
   *
   * @param what what is awaited, for the failure message ("etcd m0 to answer /health")
   * @param details appended to the failure message (e.g. the tail of a process log); may be null
   * @throws LocalClusterException when the timeout passes (naming {@code what}, the last error and
   *     the details), when the condition throws one, or when the thread is interrupted
   */
  public static void until(
      Duration timeout, String what, Callable<Boolean> condition, Supplier<String> details) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    while (true) {
      try {
        if (Boolean.TRUE.equals(condition.call())) {
          return;
        }
        last = null;
      } catch (LocalClusterException e) {
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalClusterException("interrupted while waiting for " + what, e);
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        String message =
            "timed out after "
                + timeout.toMillis()
                + " ms waiting for "
                + what
                + (last == null ? "" : " (last error: " + last + ")");
        String more = details == null ? null : details.get();
        throw new LocalClusterException(
            more == null || more.isEmpty() ? message : message + "\n" + more, last);
      }
      try {
        Thread.sleep(INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalClusterException("interrupted while waiting for " + what, e);
      }
    }
  }
}
