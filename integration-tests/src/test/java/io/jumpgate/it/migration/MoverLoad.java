package io.jumpgate.it.migration;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of the mover tests, through two driver clients: {@code syncThreads} threads of one
 * client INCR shared counters and SET keys of their own (one in three with a TTL); one task of the
 * other client keeps a pipeline of {@code pipeline} INCRs in flight. It records what the servers
 * must hold afterwards: every acknowledged INCR per counter, the last acknowledged value per SET
 * key, and every error. Close it to stop the threads.
 */
final class MoverLoad implements AutoCloseable {

  static final int COUNTERS = 200;
  static final int SET_KEYS_PER_THREAD = 100;

  final Map<String, AtomicLong> increments = new ConcurrentHashMap<>();
  final Map<String, String> lastValues = new ConcurrentHashMap<>();
  final Map<String, Boolean> withTtl = new ConcurrentHashMap<>();
  final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
  final AtomicLong operations = new AtomicLong();

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final ExecutorService threads;
  private final List<Future<?>> tasks = new ArrayList<>();

  MoverLoad(
      JumpgateCommands<String, String> sync,
      int syncThreads,
      JumpgateAsyncCommands<String, String> async,
      int pipeline) {
    threads = Executors.newFixedThreadPool(syncThreads + 1);
    for (int thread = 0; thread < syncThreads; thread++) {
      int owner = thread;
      tasks.add(threads.submit(() -> syncLoop(sync, owner)));
    }
    tasks.add(threads.submit(() -> pipelineLoop(async, pipeline)));
  }

  private void syncLoop(JumpgateCommands<String, String> sync, int owner) {
    long sequence = 0;
    while (running.get()) {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      String counter = "counter:" + random.nextInt(COUNTERS);
      try {
        sync.incr(counter);
        increments.computeIfAbsent(counter, key -> new AtomicLong()).incrementAndGet();
        operations.incrementAndGet();
        int index = random.nextInt(SET_KEYS_PER_THREAD);
        String key = "set:" + owner + ":" + index;
        String value = "v" + (++sequence);
        boolean ttl = index % 3 == 0;
        if (ttl) {
          sync.set(key, value, SetArgs.Builder.px(600_000));
        } else {
          sync.set(key, value);
        }
        lastValues.put(key, value);
        withTtl.put(key, ttl);
        operations.incrementAndGet();
      } catch (RuntimeException e) {
        errors.add(e);
      }
    }
  }

  private void pipelineLoop(JumpgateAsyncCommands<String, String> async, int pipeline) {
    while (running.get()) {
      List<CompletableFuture<Long>> batch = new ArrayList<>(pipeline);
      List<String> keys = new ArrayList<>(pipeline);
      for (int index = 0; index < pipeline; index++) {
        String key = "pipe:" + ThreadLocalRandom.current().nextInt(COUNTERS);
        keys.add(key);
        batch.add(async.incr(key).toCompletableFuture());
      }
      for (int index = 0; index < pipeline; index++) {
        try {
          batch.get(index).get(30, TimeUnit.SECONDS);
          increments.computeIfAbsent(keys.get(index), key -> new AtomicLong()).incrementAndGet();
          operations.incrementAndGet();
        } catch (Exception e) {
          errors.add(e);
        }
      }
    }
  }

  /** Stops the load and waits for every task, bounded. */
  void stop(Duration bound) throws Exception {
    running.set(false);
    for (Future<?> task : tasks) {
      task.get(bound.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    running.set(false);
    threads.shutdownNow();
  }
}
