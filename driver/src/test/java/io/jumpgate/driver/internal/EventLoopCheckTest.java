package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.netty.util.concurrent.DefaultEventExecutor;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The check behind "no blocking call on an event loop" runs on every blocking call: it must tell
 * event-loop threads from others, and stay cheap (no lock, no allocation).
 */
class EventLoopCheckTest {

  private static final int CALLS = 10_000_000;

  @Test
  void should_tell_an_event_executor_thread_from_a_plain_one() throws Exception {
    DefaultEventExecutor executor = new DefaultEventExecutor();
    try {
      assertThat(executor.submit(Views::onEventLoop).get(10, TimeUnit.SECONDS)).isTrue();
      assertThat(Views.onEventLoop()).isFalse();
    } finally {
      executor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  @Test
  void should_cost_nanoseconds_and_allocate_nothing() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    int found = 0;
    for (int i = 0; i < CALLS; i++) { // warm up (and the thread-local map's one-time creation)
      found += Views.onEventLoop() ? 1 : 0;
    }
    long allocatedBefore = threads.getThreadAllocatedBytes(thread);
    long start = System.nanoTime();
    for (int i = 0; i < CALLS; i++) {
      found += Views.onEventLoop() ? 1 : 0;
    }
    long nanos = System.nanoTime() - start;
    long allocated = threads.getThreadAllocatedBytes(thread) - allocatedBefore;
    System.out.printf(
        "event-loop check: %.1f ns per call, %d bytes allocated over %d calls%n",
        (double) nanos / CALLS, allocated, CALLS);
    assertThat(found).isZero();
    // Generous bounds for a shared 2-core machine: measured a few ns per call, 0 bytes (the
    // allowance covers the measuring itself).
    assertThat((double) nanos / CALLS).isLessThan(200);
    assertThat(allocated).isLessThan(10_000);
  }
}
