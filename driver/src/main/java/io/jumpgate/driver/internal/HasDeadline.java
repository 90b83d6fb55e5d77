package io.jumpgate.driver.internal;

/** A command that carries its own deadline, on the {@link System#nanoTime()} scale. */
public interface HasDeadline {
  long deadlineNanos();

  /**
   * Called by Lettuce's expiry writer as the command is written, in place of arming a timer for it:
   * true when a blocked caller ends the command at its deadline itself (the sync view), so that no
   * timer is armed; false (the default) for a timer that ends it at {@link #deadlineNanos()}.
   */
  default boolean deadlineWatchedByCaller() {
    return false;
  }
}
