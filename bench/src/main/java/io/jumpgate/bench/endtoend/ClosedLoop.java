package io.jumpgate.bench.endtoend;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * A closed-loop load: {@code inflight} slots, each issuing its next request when its previous one
 * completes (from the completing thread, usually a Netty event loop; nothing blocks there). After a
 * warm-up, requests that complete inside the measurement window are counted and their latencies
 * (issue to completion) recorded. One instance per measured point.
 */
final class ClosedLoop {

  /** Issues request number {@code sequence} of a slot. */
  @FunctionalInterface
  interface Request {
    CompletionStage<?> issue(long sequence);
  }

  /**
   * What one point measured. Latencies in microseconds; {@code clientCpuMicros} is the CPU time of
   * this whole JVM during the window divided by the requests completed in it (the client-side cost
   * of a request, less sensitive to the load of other processes than the throughput), or -1 when
   * the JVM cannot tell; {@code readWriteSyscallsPerRequest} is the read+write system calls of this
   * JVM during the window ({@link ProcessSyscalls}) divided by the same requests, or -1. {@code
   * errors} counts every failed request of the point, warm-up included; {@code firstError} is the
   * first of them, or null.
   */
  record Result(
      double throughput,
      double p50Micros,
      double p99Micros,
      double p999Micros,
      long completed,
      long errors,
      String firstError,
      double clientCpuMicros,
      double readWriteSyscallsPerRequest) {}

  private final Request request;
  private final LatencyHistogram histogram = new LatencyHistogram();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final AtomicReference<Throwable> firstError = new AtomicReference<>();
  private volatile boolean running = true;
  private volatile long windowStart = Long.MAX_VALUE;
  private volatile long windowEnd = Long.MAX_VALUE;
  private CountDownLatch stopped;

  private ClosedLoop(Request request) {
    this.request = request;
  }

  /**
   * Runs {@code request} with {@code inflight} slots for {@code warmupMillis} + {@code
   * measureMillis} and returns what the measurement window saw.
   *
   * @throws IllegalStateException when the requests still in flight do not finish within 30 s
   */
  static Result run(Request request, int inflight, long warmupMillis, long measureMillis)
      throws InterruptedException {
    if (inflight < 1) {
      throw new IllegalArgumentException("inflight must be at least 1, was " + inflight);
    }
    ClosedLoop loop = new ClosedLoop(request);
    loop.stopped = new CountDownLatch(inflight);
    for (int slot = 0; slot < inflight; slot++) {
      new Slot(loop, slot * 1_000_003L).issueNext();
    }
    return loop.measure(warmupMillis, measureMillis);
  }

  /** Waits out the warm-up and the window, then for every slot or thread to stop. */
  private Result measure(long warmupMillis, long measureMillis) throws InterruptedException {
    ClosedLoop loop = this;
    long start = System.nanoTime();
    Thread.sleep(warmupMillis);
    long cpuFrom = processCpuNanos();
    long syscallsFrom = ProcessSyscalls.readWriteCalls();
    long measureFrom = System.nanoTime();
    loop.windowStart = measureFrom;
    loop.windowEnd = measureFrom + TimeUnit.MILLISECONDS.toNanos(measureMillis);
    long remaining;
    while ((remaining = loop.windowEnd - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(remaining);
    }
    long cpuTo = processCpuNanos();
    long syscallsTo = ProcessSyscalls.readWriteCalls();
    loop.running = false;
    if (!loop.stopped.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "requests still in flight 30 s after the end of the measurement (started "
              + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
              + " ms ago)");
    }
    double seconds = (loop.windowEnd - loop.windowStart) / 1e9;
    Throwable error = loop.firstError.get();
    return new Result(
        loop.completed.get() / seconds,
        loop.histogram.valueAt(0.50) / 1e3,
        loop.histogram.valueAt(0.99) / 1e3,
        loop.histogram.valueAt(0.999) / 1e3,
        loop.completed.get(),
        loop.errors.get(),
        error == null ? null : error.toString(),
        cpuFrom < 0 || cpuTo < 0 || loop.completed.get() == 0
            ? -1
            : (cpuTo - cpuFrom) / 1e3 / loop.completed.get(),
        ProcessSyscalls.perRequest(syscallsFrom, syscallsTo, loop.completed.get()));
  }

  /** Makes blocking call number {@code sequence} of a thread and returns when it has ended. */
  @FunctionalInterface
  interface BlockingRequest {
    Object call(long sequence);
  }

  /**
   * Runs {@code request} from {@code threads} threads, each making its next blocking call when its
   * previous one returned, for {@code warmupMillis} + {@code measureMillis}, and returns what the
   * measurement window saw: the same figures as {@link #run}, the number of threads taking the
   * place of the in-flight limit.
   *
   * @throws IllegalStateException when a thread's last call does not return within 30 s
   */
  static Result runBlocking(
      BlockingRequest request, int threads, long warmupMillis, long measureMillis)
      throws InterruptedException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    ClosedLoop loop = new ClosedLoop(sequence -> null);
    loop.stopped = new CountDownLatch(threads);
    for (int index = 0; index < threads; index++) {
      long firstSequence = index * 1_000_003L;
      Thread thread =
          new Thread(() -> loop.callUntilStopped(request, firstSequence), "bench-sync-" + index);
      thread.setDaemon(true);
      thread.start();
    }
    return loop.measure(warmupMillis, measureMillis);
  }

  private void callUntilStopped(BlockingRequest blocking, long firstSequence) {
    long sequence = firstSequence;
    try {
      while (running) {
        long issuedAt = System.nanoTime();
        Throwable error = null;
        try {
          blocking.call(sequence++);
        } catch (RuntimeException e) {
          error = e;
        }
        completed(issuedAt, error);
      }
    } finally {
      stopped.countDown();
    }
  }

  /** CPU time of this JVM (all threads) in nanoseconds, or -1 when not available. */
  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean bean) {
      return bean.getProcessCpuTime();
    }
    return -1;
  }

  private void completed(long issuedAt, Throwable error) {
    long now = System.nanoTime();
    if (error != null) {
      errors.incrementAndGet();
      firstError.compareAndSet(null, error);
    } else if (now >= windowStart && now <= windowEnd) {
      completed.incrementAndGet();
      histogram.record(now - issuedAt);
    }
  }

  /** One in-flight slot; never two requests of one slot at once. */
  private static final class Slot implements BiConsumer<Object, Throwable> {
    private final ClosedLoop loop;
    private long sequence;
    private long issuedAt;

    Slot(ClosedLoop loop, long firstSequence) {
      this.loop = loop;
      this.sequence = firstSequence;
    }

    void issueNext() {
      // Requests that complete at once (e.g. a rejected one) are handled in this loop rather
      // than by recursion through whenComplete.
      while (true) {
        if (!loop.running) {
          loop.stopped.countDown();
          return;
        }
        issuedAt = System.nanoTime();
        CompletableFuture<?> future;
        try {
          future = loop.request.issue(sequence++).toCompletableFuture();
        } catch (RuntimeException e) {
          loop.completed(issuedAt, e);
          continue;
        }
        if (!future.isDone()) {
          future.whenComplete(this);
          return;
        }
        Throwable error = null;
        try {
          future.join();
        } catch (RuntimeException e) {
          error = e;
        }
        loop.completed(issuedAt, error);
      }
    }

    @Override
    public void accept(Object result, Throwable error) {
      loop.completed(issuedAt, error);
      issueNext();
    }
  }
}
