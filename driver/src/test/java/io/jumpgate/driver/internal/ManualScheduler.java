package io.jumpgate.driver.internal;

import java.util.PriorityQueue;
import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link RegistryScheduler} and {@link TaskScheduler} in virtual time: tasks run on the test
 * thread when it says so.
 */
final class ManualScheduler implements RegistryScheduler, TaskScheduler {

  private static final class Task implements Comparable<Task> {
    final long time;
    final long order;
    final Runnable runnable;
    boolean cancelled;

    Task(long time, long order, Runnable runnable) {
      this.time = time;
      this.order = order;
      this.runnable = runnable;
    }

    @Override
    public int compareTo(Task other) {
      int byTime = Long.compare(time, other.time);
      return byTime != 0 ? byTime : Long.compare(order, other.order);
    }
  }

  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private long now = 1_000_000_000L;
  private long order;
  private boolean shutdown;

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public void execute(Runnable task) {
    schedule(task, 0);
  }

  @Override
  public Runnable schedule(Runnable runnable, long delayNanos) {
    if (shutdown) {
      throw new RejectedExecutionException("shut down");
    }
    Task task = new Task(now + Math.max(0, delayNanos), order++, runnable);
    tasks.add(task);
    return () -> task.cancelled = true;
  }

  @Override
  public void shutdown() {
    shutdown = true;
    tasks.clear();
  }

  boolean isShutdown() {
    return shutdown;
  }

  /** Tasks scheduled and neither run nor cancelled yet. */
  int pendingTasks() {
    int pending = 0;
    for (Task task : tasks) {
      if (!task.cancelled) {
        pending++;
      }
    }
    return pending;
  }

  /** Runs every task due now, including those they queue for now. */
  void runDue() {
    advance(0);
  }

  /** Moves the clock forward, running every task that falls due on the way, in order. */
  void advance(long nanos) {
    long target = now + nanos;
    while (!tasks.isEmpty() && tasks.peek().time <= target) {
      Task task = tasks.poll();
      now = Math.max(now, task.time);
      if (!task.cancelled) {
        task.runnable.run();
      }
    }
    now = target;
  }

  /** Moves the clock forward in steps of {@code step}, {@code steps} times. */
  void advance(long step, int steps) {
    for (int index = 0; index < steps; index++) {
      advance(step);
    }
  }
}
