package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Write coalescing on ({@link JumpgateOptions.Builder#writeCoalescing}) against a real
 * redis-server: every command of many threads is answered, exactly once, and a command that is
 * alone on its connection is answered without any other traffic to push it out.
 */
class DriverWriteCoalescingIT {

  private static final int THREADS = 16;
  private static final int INCRS_PER_THREAD = 2000;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private JumpgateClient client(LocalCluster cluster) {
    return fixture.register(
        JumpgateClient.create(
            cluster
                .clientOptions()
                .registration(false)
                // Correctness, not latency: on a loaded machine the first connect can take more
                // than the default 2 s, and an INCR that timed out may or may not have counted.
                .commandTimeout(Duration.ofSeconds(10))
                .writeCoalescing(true)
                .build()));
  }

  @Test
  void should_answer_every_command_of_many_threads_exactly_once() throws Exception {
    // One leader: every thread's commands share one connection, the case coalescing is for.
    LocalCluster cluster = LocalCluster.start(fixture, "coalesce", 16, 1, 0);
    JumpgateClient client = client(cluster);
    JumpgateCommands<String, String> sync = client.connect().sync();
    JumpgateAsyncCommands<String, String> async = client.connect().async();
    assertThat(sync.incr("coalesce:connected")).as("first INCR, opens the connection").isEqualTo(1);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int thread = 0; thread < THREADS; thread++) {
        done.add(
            threads.submit(
                () -> {
                  // Blocking calls on one key, and windows of 50 async calls on another.
                  for (int incr = 0; incr < INCRS_PER_THREAD; incr++) {
                    sync.incr("coalesce:sync");
                  }
                  for (int window = 0; window < INCRS_PER_THREAD / 50; window++) {
                    List<CompletableFuture<Long>> answers = new ArrayList<>();
                    for (int incr = 0; incr < 50; incr++) {
                      answers.add(async.incr("coalesce:async").toCompletableFuture());
                    }
                    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                        .get(30, TimeUnit.SECONDS);
                  }
                  return null;
                }));
      }
      for (int thread = 0; thread < THREADS; thread++) {
        try {
          done.get(thread).get(120, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          throw new AssertionError("thread " + thread + " did not finish its INCRs in 120 s", e);
        }
      }
    } finally {
      threads.shutdownNow();
    }
    String expected = String.valueOf(THREADS * INCRS_PER_THREAD);
    assertThat(cluster.leader(0).call("GET", "coalesce:sync"))
        .as("the counter of %d threads x %d blocking INCRs", THREADS, INCRS_PER_THREAD)
        .isEqualTo(expected);
    assertThat(cluster.leader(0).call("GET", "coalesce:async"))
        .as("the counter of %d threads x %d async INCRs", THREADS, INCRS_PER_THREAD)
        .isEqualTo(expected);
  }

  @Test
  void should_answer_a_lone_command_without_any_other_traffic() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "lone", 16, 1, 0);
    JumpgateAsyncCommands<String, String> async = client(cluster).connect().async();
    for (int command = 1; command <= 200; command++) {
      // Nothing else is in flight: if the flush waited for a later command or a read, this
      // would never complete. The wait is a bound, not a latency assertion.
      Long value;
      try {
        value = async.incr("lone").toCompletableFuture().get(5, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(
            "lone INCR " + command + " not answered in 5 s: its write was held back", e);
      }
      assertThat(value).as("lone INCR %d", command).isEqualTo(command);
    }
  }
}
