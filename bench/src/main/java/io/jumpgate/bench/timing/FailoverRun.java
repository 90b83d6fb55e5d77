package io.jumpgate.bench.timing;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.JumpgateException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Crash failover under write load: how long after the map names the new leader do writes succeed on
 * it, and what errors did the application see.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.jumpgate.bench.timing.FailoverRun --results DIR
 * [--quick]}
 *
 * <p>Each run (5, or 2 with {@code --quick}) starts afresh: etcd, 3 redis-server leaders with a
 * replica each, a 1024-shard map (shard s led by {@code leader-(s % 3)}), and a {@code
 * JumpgateClient} with default options under a steady write load: {@value #LOAD_THREADS} threads,
 * each calling SET and INCR (alternately, synchronous API) on a key of a random shard, without
 * pause. Then: {@code kill -9} of one leader (a different one each run), {@code REPLICAOF NO ONE}
 * on its replica, and one etcd transaction that makes the replica the leader of each of the dead
 * leader's 341 or 342 shards with the epoch bumped. The gap is the completion time of the first
 * write that succeeded on an affected shard among those sent after the kill (so necessarily on the
 * new leader) minus the time the etcd transaction returned; also from the kill. Errors thrown to
 * the load threads are counted by exception class; one that is not a {@link JumpgateException} is
 * "untyped".
 *
 * <p>Writes {@code DIR/failover.json}: {@code gapMs} is the largest gap of the runs (the target is
 * checked against it), {@code gapMedianMs} the median. Exits with 1 when no write reaches the new
 * leader within 20 s. Not thread-safe: one run per JVM.
 */
public final class FailoverRun {

  /**
   * etcd's --max-txn-ops for this run (its default is 128): failing over every shard of one leader
   * of a 1024-shard map is then one transaction, one revision.
   */
  static final int MAX_TRANSACTION_OPERATIONS = 4096;

  static final String CLUSTER = "failover";
  static final int SHARDS = 1024;
  static final int LEADERS = 3;
  static final int LOAD_THREADS = 8;
  static final int RUNS = 5;
  static final int QUICK_RUNS = 2;
  static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(20);

  /** How long the load keeps going after the first write on the new leader, to count errors. */
  static final Duration AFTER_RECOVERY = Duration.ofSeconds(1);

  /** Target from issue 6. */
  static final double TARGET_GAP_MILLIS = 250;

  private FailoverRun() {}

  public static void main(String[] args) throws Exception {
    TimingArguments arguments;
    try {
      arguments = TimingArguments.parse("FailoverRun", args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    int runs = arguments.quick() ? QUICK_RUNS : RUNS;
    String[] keys = new String[SHARDS];
    fillKeysByShard(keys);
    ProcessFixture fixture = new ProcessFixture();
    List<Map<String, Object>> results = new ArrayList<>();
    try {
      for (int run = 1; run <= runs; run++) {
        try (AutoCloseable scope = fixture.openScope("failover-" + run)) {
          Map<String, Object> result = runOnce(fixture, run, (run - 1) % LEADERS, keys);
          results.add(result);
          System.out.println(
              String.format(
                  Locale.ROOT,
                  "failover run %d: gap %.1f ms after the etcd revision, %.1f ms after kill -9;"
                      + " errors %s, untyped %s",
                  run,
                  (Double) result.get("gapMs"),
                  (Double) result.get("gapFromKillMs"),
                  result.get("errors"),
                  result.get("untypedErrors")));
        }
      }
    } catch (IllegalStateException | io.jumpgate.it.fixture.FixtureException e) {
      System.err.println("failover: FAILED: " + e.getMessage());
      System.exit(1);
      return;
    }
    Map<String, Object> json = summarise(results, arguments.quick());
    Path file = arguments.results().resolve("failover.json");
    JsonText.writeFile(file, json);
    System.out.println(
        String.format(
                Locale.ROOT,
                "failover: %d runs: gap after the etcd revision max %.1f ms, median %.1f ms; after"
                    + " kill -9 max %.1f ms; errors %s, untyped %s (target gap <= %.0f ms, all"
                    + " typed: %s)",
                results.size(),
                (Double) json.get("gapMaxMs"),
                (Double) json.get("gapMedianMs"),
                (Double) json.get("gapFromKillMaxMs"),
                json.get("errors"),
                json.get("untypedErrors"),
                TARGET_GAP_MILLIS,
                Boolean.TRUE.equals(json.get("targetMet")) ? "met" : "MISSED")
            + " -> "
            + file);
    System.exit(0);
  }

  /** A key of each shard: {@code {tag}} with a tag found by search. */
  static void fillKeysByShard(String[] keys) {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(keys.length);
    int filled = 0;
    for (int candidate = 0; filled < keys.length; candidate++) {
      String tag = "f" + candidate;
      int shard = router.shardOfUtf8(tag);
      if (keys[shard] == null) {
        keys[shard] = "{" + tag + "}";
        filled++;
      }
    }
  }

  private static Map<String, Object> runOnce(
      ProcessFixture fixture, int run, int victim, String[] keys) throws Exception {
    LocalCluster cluster =
        LocalCluster.start(
            fixture,
            EtcdCluster.options()
                .extraArgs("--max-txn-ops", Integer.toString(MAX_TRANSACTION_OPERATIONS)),
            CLUSTER,
            SHARDS,
            LEADERS,
            1);
    JumpgateClient client =
        fixture.register(JumpgateClient.create(cluster.clientOptions().build()));
    boolean[] affected = new boolean[SHARDS];
    Map<String, String> failover = new LinkedHashMap<>();
    for (int shard = 0; shard < SHARDS; shard++) {
      if (shard % LEADERS == victim) {
        affected[shard] = true;
        failover.put(
            LocalCluster.shardKey(shard),
            LocalCluster.assignmentJson(LocalCluster.replicaId(victim, 0), List.of(), 1));
      }
    }
    WriteLoad load = new WriteLoad(client.connect().sync(), keys, affected);
    load.start();
    try {
      Poll.until(Duration.ofSeconds(20), "the write load to get going", () -> load.acked() > 2000);
      long ackedBefore = load.acked();
      long steadyStart = System.nanoTime();
      Thread.sleep(500); // a short steady period, to report the rate before the crash
      double ratePerSecond =
          (load.acked() - ackedBefore) / ((System.nanoTime() - steadyStart) / 1e9);

      MachineLoad loadAtStart = MachineLoad.now();
      RedisProcess leader = cluster.leader(victim);
      RedisProcess replica = cluster.replicasOf(victim).get(0);
      leader.kill9();
      long killed = System.nanoTime();
      load.killedAt(killed);
      Object promoted = replica.call("REPLICAOF", "NO", "ONE");
      long promotedAt = System.nanoTime();
      if (!"OK".equals(promoted)) {
        throw new IllegalStateException("REPLICAOF NO ONE answered " + promoted);
      }
      long putStart = System.nanoTime();
      long revision = cluster.putValues(failover);
      long putReturned = System.nanoTime();
      load.revisionAt(putReturned);
      Poll.until(
          RECOVERY_TIMEOUT,
          "a write to succeed on the new leader " + LocalCluster.replicaId(victim, 0),
          () -> load.firstOnNewLeader() != Long.MAX_VALUE);
      Thread.sleep(AFTER_RECOVERY.toMillis()); // keep the load on to count late errors
      load.stop();
      Map<String, Object> machine = MachineLoad.now().since(loadAtStart);

      long first = load.firstOnNewLeader();
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("run", run);
      result.put("killedLeader", LocalCluster.leaderId(victim));
      result.put("newLeader", LocalCluster.replicaId(victim, 0));
      result.put("affectedShards", failover.size());
      result.put("revision", revision);
      result.put("gapMs", (first - putReturned) / 1e6);
      result.put("gapFromPutStartMs", (first - putStart) / 1e6);
      result.put("gapFromKillMs", (first - killed) / 1e6);
      result.put("promoteMs", (promotedAt - killed) / 1e6);
      result.put("etcdTransactionMs", (putReturned - putStart) / 1e6);
      result.put("writesPerSecondBefore", Math.round(ratePerSecond));
      result.put("writesAcked", load.acked());
      result.put("errors", load.errors());
      result.put("errorsAfterRevision", load.errorsAfterRevision());
      result.put(
          "lastErrorAfterRevisionMs",
          load.lastErrorNanos() == 0 ? null : (load.lastErrorNanos() - putReturned) / 1e6);
      result.put("untypedErrors", load.untyped());
      result.put("untypedTypes", load.untypedTypes());
      result.put("machine", machine);
      return result;
    } finally {
      load.stop();
    }
  }

  static Map<String, Object> summarise(List<Map<String, Object>> runs, boolean quick) {
    double[] gaps = runs.stream().mapToDouble(run -> (Double) run.get("gapMs")).toArray();
    double[] fromKill =
        runs.stream().mapToDouble(run -> (Double) run.get("gapFromKillMs")).toArray();
    Map<String, Long> errors = new TreeMap<>();
    long untyped = 0;
    for (Map<String, Object> run : runs) {
      @SuppressWarnings("unchecked")
      Map<String, Long> runErrors = (Map<String, Long>) run.get("errors");
      runErrors.forEach((type, count) -> errors.merge(type, count, Long::sum));
      untyped += (Long) run.get("untypedErrors");
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("gapMs", max(gaps));
    json.put("gapStatistic", "max over the runs (gapMedianMs is the median)");
    json.put("gapMaxMs", max(gaps));
    json.put("gapMedianMs", median(gaps));
    json.put("gapFromKillMs", max(fromKill));
    json.put("gapFromKillMaxMs", max(fromKill));
    json.put("gapFromKillMedianMs", median(fromKill));
    json.put("targetGapMs", TARGET_GAP_MILLIS);
    json.put("targetMet", max(gaps) <= TARGET_GAP_MILLIS && untyped == 0);
    json.put("errors", errors);
    json.put("untypedErrors", untyped);
    json.put("runs", runs);
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("quick", quick);
    setup.put("shards", SHARDS);
    setup.put("leaders", LEADERS + ", one replica each");
    setup.put(
        "load",
        LOAD_THREADS
            + " threads, synchronous SET and INCR alternately on a key of a random shard, no pause;"
            + " client with default options (command timeout 2 s, 3 attempts)");
    setup.put(
        "sequence",
        "kill -9 the leader, REPLICAOF NO ONE on its replica, one etcd transaction moving every"
            + " affected shard to the replica with epoch 1");
    setup.put(
        "gap",
        "completion of the first successful write on an affected shard sent after the kill, minus"
            + " the return of the etcd transaction");
    setup.put("availableProcessors", Runtime.getRuntime().availableProcessors());
    json.put("setup", setup);
    return json;
  }

  static double max(double[] values) {
    return Arrays.stream(values).max().orElseThrow();
  }

  /** The median; the mean of the two middle values for an even count. */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /** SET and INCR from several threads, recording outcomes. Thread-safe. */
  private static final class WriteLoad {
    private final JumpgateCommands<String, String> redis;
    private final String[] keys;
    private final boolean[] affected;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final LongAdder acked = new LongAdder();
    private final AtomicLong firstOnNewLeader = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastError = new AtomicLong();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> untypedTypes = new ConcurrentHashMap<>();
    private final LongAdder errorsAfterRevision = new LongAdder();
    private final List<Thread> threads = new ArrayList<>();
    private volatile long killedAt = Long.MAX_VALUE;
    private volatile long revisionAt = Long.MAX_VALUE;

    WriteLoad(JumpgateCommands<String, String> redis, String[] keys, boolean[] affected) {
      this.redis = redis;
      this.keys = keys;
      this.affected = affected;
    }

    void start() {
      for (int index = 0; index < LOAD_THREADS; index++) {
        Thread thread = new Thread(this::loop, "failover-load-" + index);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
    }

    private void loop() {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      boolean set = random.nextBoolean();
      while (running.get()) {
        int shard = random.nextInt(keys.length);
        long sent = System.nanoTime();
        try {
          if (set) {
            redis.set(keys[shard] + ":s", "v" + sent);
          } else {
            redis.incr(keys[shard] + ":n");
          }
          long done = System.nanoTime();
          acked.increment();
          if (affected[shard] && sent - killedAt > 0) {
            firstOnNewLeader.accumulateAndGet(done, Math::min);
          }
        } catch (RuntimeException e) {
          long failed = System.nanoTime();
          lastError.accumulateAndGet(failed, Math::max);
          if (failed - revisionAt > 0) {
            errorsAfterRevision.increment();
          }
          String type = e.getClass().getSimpleName();
          errors.computeIfAbsent(type, name -> new LongAdder()).increment();
          if (!(e instanceof JumpgateException)) {
            untypedTypes
                .computeIfAbsent(e.getClass().getName(), name -> new LongAdder())
                .increment();
          }
        }
        set = !set;
      }
    }

    void killedAt(long nanos) {
      killedAt = nanos;
    }

    void revisionAt(long nanos) {
      revisionAt = nanos;
    }

    long acked() {
      return acked.sum();
    }

    long firstOnNewLeader() {
      return firstOnNewLeader.get();
    }

    long lastErrorNanos() {
      return lastError.get();
    }

    Map<String, Long> errors() {
      Map<String, Long> counts = new TreeMap<>();
      errors.forEach((type, count) -> counts.put(type, count.sum()));
      return counts;
    }

    Map<String, Long> untypedTypes() {
      Map<String, Long> counts = new TreeMap<>();
      untypedTypes.forEach((type, count) -> counts.put(type, count.sum()));
      return counts;
    }

    long untyped() {
      return untypedTypes.values().stream().mapToLong(LongAdder::sum).sum();
    }

    long errorsAfterRevision() {
      return errorsAfterRevision.sum();
    }

    void stop() throws InterruptedException {
      running.set(false);
      for (Thread thread : threads) {
        thread.join(10_000);
      }
    }
  }
}
