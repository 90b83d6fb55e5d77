package io.jumpgate.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Tells a shutdown hook that the verb run by {@link JumpgateCli#main} has printed its last line.
 * After Ctrl-C the JVM halts as soon as its shutdown hooks return: a hook that stops a running verb
 * (the data move's cancel) waits here, so that the verb's closing message (what stays, how to
 * finish) reaches the terminal before the process ends.
 *
 * <p>Thread-safe. Only {@code main} marks it done: a verb run in-process (tests) never does, and a
 * hook waiting on it then waits its full bound.
 */
final class VerbCompletion {

  private static final CountDownLatch PRINTED = new CountDownLatch(1);

  private VerbCompletion() {}

  /** The verb has returned and its output and error message are printed. */
  static void printed() {
    PRINTED.countDown();
  }

  /**
   * Waits until {@link #printed()} or {@code millis} have passed.
   *
   * @return whether the verb's output was printed in time
   */
  static boolean awaitPrinted(long millis) throws InterruptedException {
    return PRINTED.await(Math.max(0, millis), TimeUnit.MILLISECONDS);
  }
}
