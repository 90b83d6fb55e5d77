package io.jumpgate.driver.internal;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Requests held because their shard is frozen for a migration's cutover: a bounded queue in arrival
 * order. Each request leaves it exactly once, by whoever claims it first: the release when the
 * freeze ends (in order), its own timer when it waited too long, or the close.
 *
 * <p>Thread-safe, lock-free.
 */
final class HeldRequests {

  /** One held try and what ends its wait. */
  static final class Held {
    final RoutedCommand<?, ?, ?> command;
    final CommandTry<?, ?, ?> attempt;
    final long heldAtNanos;
    final AtomicBoolean claimed = new AtomicBoolean();
    volatile Runnable cancelTimer;

    Held(RoutedCommand<?, ?, ?> command, CommandTry<?, ?, ?> attempt, long heldAtNanos) {
      this.command = command;
      this.attempt = attempt;
      this.heldAtNanos = heldAtNanos;
    }

    /** True for exactly one caller: the one that ends the wait. */
    boolean claim() {
      return claimed.compareAndSet(false, true);
    }

    void cancelTimer() {
      Runnable cancel = cancelTimer;
      if (cancel != null) {
        cancel.run();
      }
    }
  }

  private final int capacity;
  private final ConcurrentLinkedQueue<Held> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();

  HeldRequests(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  /** Queues a request; false when the queue is full (it was not queued). */
  boolean add(Held held) {
    if (size.incrementAndGet() > capacity) {
      size.decrementAndGet();
      return false;
    }
    queue.add(held);
    return true;
  }

  /** Claims a request out of the queue (its timer, a re-check); false when someone else did. */
  boolean claim(Held held) {
    if (!held.claim()) {
      return false;
    }
    queue.remove(held);
    size.decrementAndGet();
    return true;
  }

  /** Claims every request that {@code release} accepts and hands each to {@code send}, in order. */
  void releaseWhere(Predicate<Held> release, Consumer<Held> send) {
    for (Iterator<Held> iterator = queue.iterator(); iterator.hasNext(); ) {
      Held held = iterator.next();
      if (release.test(held) && held.claim()) {
        iterator.remove();
        size.decrementAndGet();
        send.accept(held);
      }
    }
  }

  /** Requests held now. */
  int size() {
    return size.get();
  }
}
