package io.jumpgate.driver.internal;

/** A command that carries its own deadline, on the {@link System#nanoTime()} scale. */
public interface HasDeadline {
  long deadlineNanos();
}
