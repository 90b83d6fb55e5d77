package io.jumpgate.driver.internal;

import io.netty.util.concurrent.EventExecutorGroup;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Where the driver runs its timers and retries, and its clock: an interface so that tests move time
 * instead of sleeping. Tasks must never block.
 *
 * <p>Thread-safe.
 */
public interface TaskScheduler {

  /** Now, in nanoseconds, for intervals and deadlines only. */
  long nanoTime();

  /**
   * Runs a task soon, on a thread of the scheduler.
   *
   * @throws RejectedExecutionException once the scheduler was shut down
   */
  void execute(Runnable task);

  /**
   * Runs a task after a delay.
   *
   * @return what cancels it (doing nothing once it ran); a cancelled task is released at once
   * @throws RejectedExecutionException once the scheduler was shut down
   */
  Runnable schedule(Runnable task, long delayNanos);

  /** Lettuce's computation threads (never its I/O event loops), on the system clock. */
  static TaskScheduler on(EventExecutorGroup executors) {
    return new TaskScheduler() {
      @Override
      public long nanoTime() {
        return System.nanoTime();
      }

      @Override
      public void execute(Runnable task) {
        executors.execute(task);
      }

      @Override
      public Runnable schedule(Runnable task, long delayNanos) {
        // Netty removes a cancelled task from its queue, so nothing it holds is kept until then.
        io.netty.util.concurrent.ScheduledFuture<?> future =
            executors.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
      }
    };
  }
}
