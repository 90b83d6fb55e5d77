package io.jumpgate.driver.internal;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread a {@link ClientRegistration} runs on, and its clock. An interface so that tests
 * can run the registration in virtual time.
 *
 * <p>Thread-safe.
 */
interface RegistryScheduler {

  /** Now, in nanoseconds, for intervals only. */
  long nanoTime();

  /**
   * Runs a task on the registry thread, after the tasks queued before it.
   *
   * @throws RejectedExecutionException once shut down
   */
  void execute(Runnable task);

  /**
   * Runs a task on the registry thread after a delay.
   *
   * @return what cancels it (doing nothing once it ran)
   * @throws RejectedExecutionException once shut down
   */
  Runnable schedule(Runnable task, long delayNanos);

  /** Runs no more tasks; the one running, if any, ends normally. */
  void shutdown();

  /** A daemon thread named {@code name}, on the system clock. */
  static RegistryScheduler thread(String name) {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = Executors.defaultThreadFactory().newThread(runnable);
              thread.setName(name);
              thread.setDaemon(true);
              return thread;
            });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return new RegistryScheduler() {
      @Override
      public long nanoTime() {
        return System.nanoTime();
      }

      @Override
      public void execute(Runnable task) {
        executor.execute(task);
      }

      @Override
      public Runnable schedule(Runnable task, long delayNanos) {
        ScheduledFuture<?> future = executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
      }

      @Override
      public void shutdown() {
        executor.shutdown();
      }
    };
  }
}
