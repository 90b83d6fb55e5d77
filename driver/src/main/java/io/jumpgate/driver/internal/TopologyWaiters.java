package io.jumpgate.driver.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Commands waiting for a newer map (after READONLY or a MOVED that names no known node): a bounded
 * set, so a leader that keeps answering READONLY while the map does not change can never grow the
 * heap.
 *
 * <p>Each waiter leaves the set exactly once, by whoever removes it first: the topology thread when
 * a newer map is published ({@link #wakeAll}), the waiter's own timer, or the close. The publisher
 * swaps the routing table before it wakes the waiters, and a waiter re-reads the table after it
 * joined, so a map published between a command's failure and its joining is never missed.
 *
 * <p>Thread-safe, lock-free.
 */
final class TopologyWaiters {

  /** The most commands that wait for a newer map at once; beyond it, a command fails at once. */
  static final int DEFAULT_CAPACITY = 10_000;

  /** One waiting command and what it does when it wakes. */
  static final class Waiter {
    final RoutedCommand<?, ?, ?> command;
    final int nextAttempt;
    final long seenRevision;
    volatile Runnable cancelTimer;

    Waiter(RoutedCommand<?, ?, ?> command, int nextAttempt, long seenRevision) {
      this.command = command;
      this.nextAttempt = nextAttempt;
      this.seenRevision = seenRevision;
    }
  }

  private final int capacity;
  private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
  private final AtomicInteger size = new AtomicInteger();

  TopologyWaiters(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  /** Adds a waiter; false when the set is full (the waiter was not added). */
  boolean add(Waiter waiter) {
    if (size.incrementAndGet() > capacity) {
      size.decrementAndGet();
      return false;
    }
    waiting.add(waiter);
    return true;
  }

  /** Removes a waiter; true for exactly one caller, the one that may wake it. */
  boolean remove(Waiter waiter) {
    if (waiting.remove(waiter)) {
      size.decrementAndGet();
      return true;
    }
    return false;
  }

  /** Removes every waiter and hands each one to {@code wake}. */
  void wakeAll(Consumer<Waiter> wake) {
    for (Waiter waiter : waiting) {
      if (remove(waiter)) {
        wake.accept(waiter);
      }
    }
  }

  /** Commands waiting now. */
  int size() {
    return size.get();
  }
}
