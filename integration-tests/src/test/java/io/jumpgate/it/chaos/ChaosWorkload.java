package io.jumpgate.it.chaos;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The load of a chaos run: writer threads doing INCR on counters they own and SET of versioned
 * values they own, and reader threads checking that the versions they read never go back within one
 * leader epoch of a shard.
 *
 * <p>Writers use one client, readers another. The readers' client reads the topology from a source
 * the run made ({@link TopologySource}), so that a read's epoch can be bounded on both sides: the
 * epoch before the read comes from a listener that runs after the driver's own (the routing table
 * the read uses is at least that new), the epoch after it from {@link JumpgateClient#topology()}
 * (published before the driver's routing table, so at least as new as the table the read used).
 * When both give the shard the same epoch, every try of the read went to that epoch's leader.
 */
final class ChaosWorkload {
  private final ChaosSettings settings;
  private final ChaosCluster cluster;
  private final ChaosStats stats;
  private final JumpgateCommands<String, String> writerCommands;
  private final JumpgateCommands<String, String> readerCommands;
  private final JumpgateClient readerClient;
  private final AtomicReferenceSnapshot appliedByReaders;
  private final String[] shardTags;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final ExecutorService threads;
  private final List<Future<?>> futures = new ArrayList<>();
  private final List<Writer> writers = new ArrayList<>();
  private final Map<String, Set<Long>> unknownWrites = new ConcurrentHashMap<>();
  private final AtomicLong writerSuccesses = new AtomicLong();

  ChaosWorkload(
      ChaosSettings settings,
      ChaosCluster cluster,
      ChaosStats stats,
      JumpgateClient writerClient,
      JumpgateClient readerClient,
      TopologySource readerSource) {
    this.settings = settings;
    this.cluster = cluster;
    this.stats = stats;
    this.writerCommands = writerClient.connect().sync();
    this.readerCommands = readerClient.connect().sync();
    this.readerClient = readerClient;
    this.appliedByReaders = new AtomicReferenceSnapshot(readerSource);
    this.shardTags = tagsPerShard(settings.shards());
    this.threads =
        Executors.newFixedThreadPool(
            settings.writers() + settings.readers(),
            runnable -> {
              Thread thread = new Thread(runnable);
              thread.setName("chaos-load-" + thread.getId());
              thread.setDaemon(true);
              return thread;
            });
  }

  /** A hash tag per shard: {@code "{tag}:..."} keys all route to that shard. */
  static String[] tagsPerShard(int shards) {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shards);
    String[] tags = new String[shards];
    int found = 0;
    for (int candidate = 0; found < shards; candidate++) {
      String tag = "s" + candidate;
      int shard = router.shardOfUtf8(tag);
      if (tags[shard] == null) {
        tags[shard] = tag;
        found++;
      }
    }
    return tags;
  }

  String keyOf(int shard, String suffix) {
    return "{" + shardTags[shard] + "}:" + suffix;
  }

  void start() {
    for (int writer = 0; writer < settings.writers(); writer++) {
      Writer task = new Writer(writer);
      writers.add(task);
      futures.add(threads.submit(task));
    }
    for (int reader = 0; reader < settings.readers(); reader++) {
      futures.add(threads.submit(new Reader(reader)));
    }
  }

  /** Successful writer calls so far. */
  long writerSuccesses() {
    return writerSuccesses.get();
  }

  /** Stops every thread (each ends its call in flight, bounded by the deadline) and waits. */
  void stop() throws Exception {
    running.set(false);
    for (Future<?> future : futures) {
      future.get(settings.commandTimeout().toMillis() + 10_000, TimeUnit.MILLISECONDS);
    }
    threads.shutdownNow();
  }

  List<CounterLedger> ledgers() {
    List<CounterLedger> all = new ArrayList<>();
    for (Writer writer : writers) {
      all.addAll(writer.counters);
    }
    return all;
  }

  /**
   * The keys that a write acknowledged at least once (counters and versioned keys), which must be
   * on their shard's leader at the end; call it after {@link #stop()}.
   */
  List<String> acknowledgedKeys() {
    List<String> keys = new ArrayList<>();
    for (Writer writer : writers) {
      for (CounterLedger ledger : writer.counters) {
        if (ledger.acknowledgedCount() > 0) {
          keys.add(ledger.key());
        }
      }
      for (int shard = 0; shard < settings.shards(); shard++) {
        if (writer.versionAcknowledged[shard]) {
          keys.add(writer.versionKeys[shard]);
        }
      }
    }
    return keys;
  }

  /** The longest time any writer went without a successful call, up to {@code endNanos}. */
  long longestStallNanos(long endNanos) {
    long longest = 0;
    for (Writer writer : writers) {
      longest = Math.max(longest, Math.max(writer.longestGap, endNanos - writer.lastSuccess));
    }
    return longest;
  }

  /** Keeps a thread at a steady pace without bursting after a slow call. */
  private static final class Pacer {
    private final long intervalNanos;
    private long next = System.nanoTime();

    Pacer(int perSecond) {
      this.intervalNanos = 1_000_000_000L / perSecond;
    }

    void pace() {
      next += intervalNanos;
      long now = System.nanoTime();
      if (next > now) {
        LockSupport.parkNanos(next - now);
      } else if (now - next > 100 * intervalNanos) {
        next = now;
      }
    }
  }

  /** Owns one counter and one versioned key on every shard. */
  private final class Writer implements Runnable {
    final int index;
    final List<CounterLedger> counters = new ArrayList<>();
    final String[] versionKeys;
    final long[] versions;
    final boolean[] versionAcknowledged;
    long lastSuccess = System.nanoTime();
    long longestGap;

    Writer(int index) {
      this.index = index;
      // A pinned shard stays in its group: a loss counts as a crash loss only for a crash of that
      // group. The other shards move between groups with their data: a crash of any group counts.
      for (int shard = 0; shard < settings.shards(); shard++) {
        int group = settings.isPinned(shard) ? cluster.groupOf(shard) : ChaosCluster.ANY_GROUP;
        counters.add(
            new CounterLedger(
                keyOf(shard, "counter:" + index),
                group,
                FaultController.LONGEST_RUN_DELAY.toNanos(),
                FaultController.REPLICATION_LAG_ALLOWANCE.toNanos()));
      }
      versionKeys = new String[settings.shards()];
      versions = new long[settings.shards()];
      versionAcknowledged = new boolean[settings.shards()];
      for (int shard = 0; shard < settings.shards(); shard++) {
        versionKeys[shard] = keyOf(shard, "version:" + index);
      }
    }

    @Override
    public void run() {
      Pacer pacer = new Pacer(settings.opsPerSecondPerThread());
      int counter = 0;
      int versioned = index;
      while (running.get()) {
        increment(counters.get(counter++ % counters.size()));
        pacer.pace();
        if (!running.get()) {
          break;
        }
        write(versioned++ % versionKeys.length);
        pacer.pace();
      }
    }

    private void increment(CounterLedger ledger) {
      long crashMark = cluster.crashesCompleted(ledger.group());
      long start = System.nanoTime();
      try {
        long reply = writerCommands.incr(ledger.key());
        long end = System.nanoTime();
        ledger.acknowledged(
            reply,
            start,
            end,
            crashMark,
            cluster.crashesStarted(ledger.group()),
            cluster.lastCrashStartNanos(ledger.group()));
        stats.succeeded("INCR", start, end);
        success(end);
      } catch (RuntimeException e) {
        long failedAt = System.nanoTime();
        if (stats.failed("INCR", e, start, failedAt)) {
          ledger.unknownOutcome(failedAt);
        }
      }
    }

    private void write(int shard) {
      long version = ++versions[shard];
      String key = versionKeys[shard];
      long start = System.nanoTime();
      try {
        writerCommands.set(key, Long.toString(version));
        long end = System.nanoTime();
        versionAcknowledged[shard] = true;
        stats.succeeded("SET", start, end);
        success(end);
      } catch (RuntimeException e) {
        if (stats.failed("SET", e, start, System.nanoTime())) {
          unknownWrites.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(version);
        }
      }
    }

    private void success(long end) {
      longestGap = Math.max(longestGap, end - lastSuccess);
      lastSuccess = end;
      writerSuccesses.incrementAndGet();
    }
  }

  /** Reads every writer's versioned keys in a seeded order, comparing within a leader epoch. */
  private final class Reader implements Runnable {
    final List<int[]> keys = new ArrayList<>();
    final VersionCheck versions = new VersionCheck();

    Reader(int index) {
      for (int writer = 0; writer < settings.writers(); writer++) {
        for (int shard = 0; shard < settings.shards(); shard++) {
          keys.add(new int[] {writer, shard});
        }
      }
      Collections.shuffle(keys, new Random(settings.seed() + index));
    }

    @Override
    public void run() {
      Pacer pacer = new Pacer(settings.opsPerSecondPerThread());
      int next = 0;
      while (running.get()) {
        int[] entry = keys.get(next++ % keys.size());
        read(keyOf(entry[1], "version:" + entry[0]), entry[1]);
        pacer.pace();
      }
    }

    private void read(String key, int shard) {
      long epochBefore = appliedByReaders.get().route(shard).epoch();
      long start = System.nanoTime();
      String value;
      try {
        value = readerCommands.get(key);
        stats.succeeded("GET", start, System.nanoTime());
      } catch (RuntimeException e) {
        stats.failed("GET", e, start, System.nanoTime());
        return;
      }
      long epochAfter = readerClient.topology().route(shard).epoch();
      if (epochBefore != epochAfter) {
        return;
      }
      long version = value == null ? 0 : Long.parseLong(value);
      switch (versions.check(key, epochBefore, version)) {
        case FIRST_IN_EPOCH -> {}
        case IN_ORDER -> stats.readCompared();
        case WENT_BACK -> {
          stats.readCompared();
          Set<Long> unknown = unknownWrites.get(key);
          stats.staleRead(
              key
                  + " (shard "
                  + shard
                  + ", epoch "
                  + epochBefore
                  + "): read "
                  + version
                  + " after "
                  + versions.highest(key),
              unknown != null && unknown.contains(version));
        }
      }
    }
  }

  /**
   * The newest snapshot that the readers' driver has surely applied: set by a listener subscribed
   * after the driver's, starting from the snapshot the client started with.
   */
  private static final class AtomicReferenceSnapshot {
    private volatile TopologySnapshot applied;

    AtomicReferenceSnapshot(TopologySource source) {
      // start() returns the first snapshot once every listener subscribed before it has seen it
      this.applied = source.start().toCompletableFuture().join();
      source.subscribe((previous, current) -> applied = current);
    }

    TopologySnapshot get() {
      return applied;
    }
  }
}
