package io.jumpgate.cli.demo;

import io.jumpgate.cli.ExitCodes;
import io.jumpgate.cli.demo.Playground.MapWrite;
import io.jumpgate.cli.demo.Workload.Snapshot;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.testkit.LocalNode;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate demo}: a local cluster and a live workload through the driver, end to end.
 *
 * <ol>
 *   <li>Starts etcd and seven redis-servers ({@code leader-0..2}, each with a replica {@code
 *       replica-i}, and {@code leader-3}, which the map does not list yet) on free ports of
 *       127.0.0.1, in a temp dir, with jumpgate-testkit's {@code LocalCluster}, which writes the
 *       shard map of cluster {@code demo}; then the map's replica slots are set to the Redis
 *       replication pairs ({@link Playground}).
 *   <li>Runs a mixed workload through a {@link JumpgateClient} for {@code --duration} ({@link
 *       Workload}), with a progress line once a second ({@link ProgressLine}); every write is
 *       recorded ({@link WriteLedger}).
 *   <li>At a fifth of the run, moves the shard of the hottest key to another leader with its keys
 *       ({@link MapChange#moveShard} through a {@link MapChangeMover}); at two fifths, fails {@code
 *       leader-1} over to {@code replica-1} (Redis {@code FAILOVER}, then the map); at half, adds
 *       {@code leader-3} with its data ({@link MapChange#addNode}: a quarter of the shards move to
 *       it live, their progress in the progress line), then aligns the map's replica slots with the
 *       Redis replication. The workload goes on throughout, and for at least {@code 1 s} after the
 *       last change, however long the changes took.
 *   <li>Reads every key from the servers directly and checks it is on exactly the node that leads
 *       its shard, with the value the workload last wrote ({@link KeyPlacementCheck}).
 *   <li>Prints where the shards and keys are and a summary of the driver's metrics ({@link
 *       MetricsSummary}), then stops every process and deletes the temp dir: also on Ctrl-C (a
 *       shutdown hook; the exit code is then 130). With {@code --keep}, the cluster stays up and
 *       the command prints how to reach and stop it.
 * </ol>
 *
 * <p>Exit codes: 0 when the workload ran (answers in every phase, at most {@value
 * #MAX_ERROR_PERCENT}% of commands failed), the node was added with every shard moved, the key
 * check found no error and the cluster shut down; 1 otherwise, with the reason; 2 for a bad option.
 * etcd and redis-server come from {@code JUMPGATE_ETCD_BIN} and {@code JUMPGATE_REDIS_BIN}, else
 * from {@code PATH} (the testkit looks them up); when one is missing the command fails at once with
 * the install command ({@code bin/jumpgate demo} installs them first when run as root).
 *
 * <p>Threading: picocli fills one instance per invocation; the main thread drives the demo, a
 * ticker thread prints the progress line, a mover thread runs the map changes with their data, the
 * driver's threads count the answers.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a local cluster (etcd, 3 Redis leaders each with a replica, and a fourth Redis"
          + " server) and a live workload through the driver. Mid-run it moves the hottest"
          + " shard with its keys, fails a leader over, then adds the fourth server as a node"
          + " and moves a quarter of the shards to it with their keys, live, with progress.",
      "",
      "At the end it reads every key from the servers directly and checks that it is on the"
          + " node that leads its shard with the value last written: '0 errors, every key"
          + " checked', or the mismatches and exit code 1.",
      "",
      "Needs etcd and redis-server (JUMPGATE_ETCD_BIN and JUMPGATE_REDIS_BIN, else on PATH)."
          + " Everything runs on 127.0.0.1, in a temp dir that is removed at the end (also on"
          + " Ctrl-C) unless --keep is given."
    },
    footer = {"", "Examples:", "  jumpgate demo", "  jumpgate demo --duration 1m --keep"})
public final class DemoCommand implements Callable<Integer> {

  static final String DURATION_OPTION = "--duration";
  static final Duration MIN_DURATION = Duration.ofSeconds(3);
  static final Duration MAX_DURATION = Duration.ofHours(24);

  /** Commands the workload keeps in flight. */
  static final int MAX_IN_FLIGHT = 64;

  /** More failed commands than this (in percent of all) fail the demo. */
  static final int MAX_ERROR_PERCENT = 1;

  private static final Duration REVISION_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration WARM_UP = Duration.ofSeconds(1);
  private static final Duration CARRY_ON = Duration.ofSeconds(1);
  private static final Duration SETTLE = Duration.ofMillis(500);
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);
  private static final String FAILED_LEADER = Playground.leaderId(1);

  /** Shards the mover freezes and cuts over together. */
  static final int GROUP_SIZE = 32;

  /** From the last cutover to the removal of the moved keys from their old leader. */
  static final Duration CLEANUP_GRACE = Duration.ofMillis(2500);

  /** How long one map change with its data may take before the demo cancels it. */
  static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(60);

  /** How long a cancelled map change may take to stop. */
  static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(10);

  /** One or more of a number and a unit: {@code 500ms}, {@code 20s}, {@code 1m}, {@code 1m30s}. */
  private static final Pattern DURATION = Pattern.compile("(?:[0-9]{1,9}(?:ms|s|m|h))+");

  private static final Pattern DURATION_PART = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  @Spec private CommandSpec spec;

  private final Map<String, String> environment;

  private Duration duration = Duration.ofSeconds(20);

  @Option(
      names = "--keep",
      description =
          "Leave the cluster running at the end and print how to reach it (--etcd, --cluster)"
              + " and how to stop it.")
  private boolean keep;

  /** The verb as the CLI builds it: binaries are looked up in the process environment. */
  public DemoCommand() {
    this(System.getenv());
  }

  /**
   * @param environment where the testkit reads {@code JUMPGATE_ETCD_BIN}, {@code
   *     JUMPGATE_REDIS_BIN} and {@code PATH}
   */
  DemoCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Option(
      names = DURATION_OPTION,
      paramLabel = "DURATION",
      defaultValue = "20s",
      description =
          "How long the workload runs, e.g. 5s, 20s, 1m (3s to 24h; default: 20s); it goes on"
              + " for at least 1 s after the fourth node has joined, however long that took.")
  void setDuration(String value) {
    Duration parsed = parseDuration(value);
    if (parsed == null) {
      throw new ParameterException(
          spec.commandLine(),
          String.format(
              "%s must be a duration such as 5s, 20s or 1m, was '%s'", DURATION_OPTION, value));
    }
    if (parsed.compareTo(MIN_DURATION) < 0 || parsed.compareTo(MAX_DURATION) > 0) {
      throw new ParameterException(
          spec.commandLine(),
          String.format("%s must be between 3s and 24h, was '%s'", DURATION_OPTION, value));
    }
    duration = parsed;
  }

  /**
   * A duration written as numbers with units ({@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h},
   * combined as in {@code 1m30s}), or null when {@code text} is not one.
   */
  static Duration parseDuration(String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    if (!DURATION.matcher(value).matches()) {
      return null;
    }
    Duration total = Duration.ZERO;
    Matcher part = DURATION_PART.matcher(value);
    while (part.find()) {
      long amount = Long.parseLong(part.group(1));
      switch (part.group(2)) {
        case "ms" -> total = total.plusMillis(amount);
        case "s" -> total = total.plusSeconds(amount);
        case "m" -> total = total.plusMinutes(amount);
        default -> total = total.plusHours(amount);
      }
    }
    return total;
  }

  /** What the run did, and why it failed (null when it did not). */
  private record Outcome(
      Snapshot total,
      Map<String, Workload.CommandCount> byCommand,
      MetricsSummary.Baseline baseline,
      String failure) {}

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // Until the cluster has started, the testkit's own shutdown hook stops what it started.
    AtomicReference<Playground> started = new AtomicReference<>();
    Thread onInterrupt =
        new Thread(() -> stopOnInterrupt(started.get(), err), "jumpgate-demo-cleanup");
    Runtime.getRuntime().addShutdownHook(onInterrupt);
    Playground playground = null;
    Outcome outcome;
    try {
      long starting = System.nanoTime();
      playground = Playground.start(environment);
      started.set(playground);
      outcome = run(playground, starting, out);
    } catch (Exception e) {
      removeShutdownHook(onInterrupt);
      out.flush();
      if (e instanceof DemoException demo && !demo.details().isEmpty()) {
        err.println(demo.details());
      }
      if (playground != null) {
        shutDown(playground, out);
      }
      throw e;
    }
    removeShutdownHook(onInterrupt);
    if (keep) {
      printHowToReach(playground, out);
      playground.leaveRunning();
    } else {
      shutDown(playground, out);
    }
    if (outcome.failure() != null) {
      throw new DemoException(outcome.failure());
    }
    return ExitCodes.OK;
  }

  private Outcome run(Playground playground, long started, PrintWriter out)
      throws InterruptedException {
    try (playground) {
      say(out, "jumpgate demo: a local cluster in " + playground.directory() + " (data and logs)");
      playground.describeServers(line -> say(out, line));
      say(
          out,
          String.format(
              Locale.ROOT,
              "started etcd and %d redis-servers in %.1f s; every replica is in sync",
              playground.nodes().size(),
              seconds(System.nanoTime() - started)));
      MapWrite replicas = playground.alignReplicas();
      say(
          out,
          String.format(
              Locale.ROOT,
              "topology: cluster '%s', %d shards, written through the admin API (leaders), then"
                  + " the replica slots in one etcd transaction at revision %d:",
              Playground.CLUSTER,
              Playground.SHARDS,
              replicas.revision()));
      say(out, "  shard s is led by leader-(s % 3), with replica-(s % 3) as its replica;");
      say(out, "  " + Playground.NEW_NODE + " is not in the map: it joins mid-run");
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      JumpgateOptions options =
          JumpgateOptions.builder()
              .etcd(
                  EtcdTopologyOptions.builder()
                      .endpoints(playground.etcdEndpoint())
                      .cluster(Playground.CLUSTER)
                      .build())
              .meterRegistry(registry)
              .clientId("jumpgate-demo")
              // reads go to the leaders, which hold every key of their shards: see addNode about
              // the map's replica slots
              .readPolicy(ReadPolicy.LEADER)
              .warmUp(true)
              .build();
      try (JumpgateClient client = JumpgateClient.create(options)) {
        say(out, "driver: connected, routing with revision " + client.topology().revision());
        say(
            out,
            String.format(
                Locale.ROOT,
                "workload: %s after 1 s of warm-up, %d commands in flight; %d%% GET, %d%% SET"
                    + " (%d B), %d%% DEL, %d%% INCR, %d%% MGET of %d keys; %,d keys and %d"
                    + " counters, skewed; every write is recorded for the key check at the end",
                describe(duration),
                MAX_IN_FLIGHT,
                Workload.GET_PERCENT,
                Workload.SET_PERCENT,
                Workload.VALUE_BYTES,
                Workload.DEL_PERCENT,
                Workload.INCR_PERCENT,
                100
                    - Workload.GET_PERCENT
                    - Workload.SET_PERCENT
                    - Workload.DEL_PERCENT
                    - Workload.INCR_PERCENT,
                Workload.MGET_KEYS,
                Workload.KEYS,
                Workload.COUNTERS));
        out.println();
        Outcome outcome = runWorkload(playground, client, registry, out);
        out.println();
        printDistribution(out, playground, client.topology(), registry, outcome.baseline());
        out.println();
        MetricsSummary.print(
            out, registry, outcome.baseline(), outcome.byCommand(), outcome.total());
        out.println();
        return outcome;
      }
    }
  }

  private Outcome runWorkload(
      Playground playground, JumpgateClient client, SimpleMeterRegistry registry, PrintWriter out)
      throws InterruptedException {
    WriteLedger ledger = Workload.newLedger();
    // A second of load first, not counted: the JVM compiles the hot paths. Its writes count for the
    // key check: they are in the ledger the workload shares.
    Workload warmUp = new Workload(client.connect().async(), MAX_IN_FLIGHT, ledger);
    warmUp.start();
    sleepUntil(System.nanoTime() + WARM_UP.toNanos());
    warmUp.stop(DRAIN_TIMEOUT);
    // the summary's driver figures count from here, as the workload's do
    MetricsSummary.Baseline baseline = MetricsSummary.baseline(registry);
    EtcdTopologyOptions etcd =
        EtcdTopologyOptions.builder()
            .endpoints(playground.etcdEndpoint())
            .cluster(Playground.CLUSTER)
            .build();
    Workload workload = new Workload(client.connect().async(), MAX_IN_FLIGHT, ledger);
    ProgressLine progress = new ProgressLine(out, System.console() != null);
    ExecutorService moverThread =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "jumpgate-demo-mover");
              thread.setDaemon(true);
              return thread;
            });
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "jumpgate-demo-progress");
              thread.setDaemon(true);
              return thread;
            });
    long runNanos = duration.toNanos();
    Snapshot afterFailover;
    long ranNanos;
    boolean drained;
    ChangeOutcome added;
    long start;
    try (MapChangeMover changes =
        MapChangeMover.create(etcd, moverOptions(), new MoveListener() {})) {
      ChangeRunner runner = new ChangeRunner(changes, moverThread);
      start = System.nanoTime();
      workload.start();
      Snapshot[] previous = {workload.snapshot()};
      long[] previousAt = {start};
      ticker.scheduleAtFixedRate(
          () -> {
            try {
              long now = System.nanoTime();
              Snapshot current = workload.snapshot();
              Snapshot interval = current.since(previous[0]);
              double seconds = seconds(now - previousAt[0]);
              previous[0] = current;
              previousAt[0] = now;
              String running = runner.moving();
              progress.update(
                  ProgressLine.format(
                      seconds(now - start),
                      Math.round(interval.commands() / Math.max(seconds, 1e-3)),
                      LatencyHistogram.percentileMicros(interval.latencies(), 0.50),
                      LatencyHistogram.percentileMicros(interval.latencies(), 0.99),
                      current.errors(),
                      client.topology().revision(),
                      running == null ? "" : running));
            } catch (RuntimeException e) {
              progress.event("progress: " + e);
            }
          },
          1,
          1,
          TimeUnit.SECONDS);
      try {
        sleepUntil(start + runNanos / 5);
        moveHottestShard(playground, client, runner, progress, start);
        sleepUntil(start + runNanos * 2 / 5);
        afterFailover = failOver(playground, client, workload, progress, start);
        sleepUntil(start + runNanos / 2);
        added = addNode(playground, client, runner, progress, start);
        // the load goes on for a while after the node joined, however long that took
        sleepUntil(Math.max(start + runNanos, System.nanoTime() + CARRY_ON.toNanos()));
      } finally {
        ticker.shutdownNow();
        ticker.awaitTermination(2, TimeUnit.SECONDS);
        ranNanos = System.nanoTime() - start;
        drained = workload.stop(DRAIN_TIMEOUT);
        progress.finish();
        changes.mover().cancel(); // only if a change is still running (it timed out)
        moverThread.shutdownNow();
      }
    }
    Snapshot total = workload.snapshot();
    out.println(
        String.format(
            Locale.ROOT,
            "workload: %,d commands in %.1f s (%,d/s), p50 %s, p99 %s, %s",
            total.commands(),
            seconds(ranNanos),
            Math.round(total.commands() / Math.max(seconds(ranNanos), 1e-3)),
            ProgressLine.latency(LatencyHistogram.percentileMicros(total.latencies(), 0.50)),
            ProgressLine.latency(LatencyHistogram.percentileMicros(total.latencies(), 0.99)),
            ProgressLine.errors(total.errors())));
    out.flush();
    KeyPlacementCheck.Result checked = checkEveryKey(playground, client, ledger, out);
    String failure = judge(total, total.since(afterFailover), drained);
    if (failure == null && !added.complete()) {
      failure = "adding " + Playground.NEW_NODE + " did not complete: " + added.summary();
    }
    if (failure == null && !checked.passed()) {
      failure =
          String.format(
              Locale.ROOT,
              "the key check found %,d error(s) in %,d keys (the first ones above)",
              checked.errors(),
              checked.keysChecked());
    }
    return new Outcome(total, workload.commandCounts(), baseline, failure);
  }

  /** Why the workload failed, or null when it ran. */
  static String judge(Snapshot total, Snapshot afterFailover, boolean drained) {
    if (total.succeeded() == 0) {
      return "the workload got no answer at all; see the errors above";
    }
    if (total.failed() * 100 > total.commands() * MAX_ERROR_PERCENT) {
      return String.format(
          Locale.ROOT,
          "the workload failed: %,d of %,d commands failed (more than %d%%): %s",
          total.failed(),
          total.commands(),
          MAX_ERROR_PERCENT,
          ProgressLine.errors(total.errors()));
    }
    if (afterFailover.succeeded() == 0) {
      return "no command succeeded after the failover of " + FAILED_LEADER;
    }
    if (!drained) {
      return "commands were still in flight "
          + DRAIN_TIMEOUT.toSeconds()
          + " s after the workload stopped";
    }
    return null;
  }

  /**
   * The mover's options in the demo: groups of {@value #GROUP_SIZE} shards frozen and cut over
   * together, and the cleanup {@link #CLEANUP_GRACE} after the last cutover, which is longer than
   * the driver's command timeout ({@link JumpgateOptions#DEFAULT_COMMAND_TIMEOUT}, 2 s) as the
   * mover asks; the rest default.
   */
  private static MoverOptions moverOptions() {
    return MoverOptions.builder()
        .groupSize(GROUP_SIZE)
        .cleanupGrace(CLEANUP_GRACE)
        .owner("jumpgate-demo@" + ProcessHandle.current().pid())
        .build();
  }

  /**
   * Runs map changes with their data on the mover's thread, one at a time, and waits for each
   * (bounded); tells the ticker which one is running.
   *
   * <p>Thread-safe: the main thread runs changes, the ticker reads {@link #running()}.
   */
  private static final class ChangeRunner {

    private final MapChangeMover changes;
    private final ExecutorService thread;
    private volatile MapChange running;
    private volatile String what;

    ChangeRunner(MapChangeMover changes, ExecutorService thread) {
      this.changes = changes;
      this.thread = thread;
    }

    /**
     * What the change that runs is doing, for the progress line ({@link ProgressLine#moving}), null
     * when none runs. Until the mover starts the change's run (the node entry is written and the
     * change planned first), its progress is that of the run before: the change is then shown as
     * starting.
     */
    String moving() {
      MapChange change = running;
      String label = what;
      if (change == null) {
        return null;
      }
      MoveProgress progress = changes.mover().progress();
      // in its prepare phase a run has no migration id yet
      boolean preparing = progress.migrationId().isEmpty() && progress.phase() == MovePhase.PREPARE;
      return progress.migrationId().equals(change.migrationId()) || preparing
          ? ProgressLine.moving(label, progress)
          : label + ": starting";
    }

    MapChangeMover changes() {
      return changes;
    }

    /**
     * Applies {@code change} on the mover's thread and waits at most {@link #CHANGE_TIMEOUT}.
     *
     * @param what the verb, for the progress line and the messages: {@code add-node}
     * @throws DemoException if it failed or did not end in time (it is then cancelled)
     */
    ChangeOutcome apply(MapChange change, String what) throws InterruptedException {
      long started = System.nanoTime();
      this.what = what;
      running = change;
      Future<MapChangeMover.Result> result = thread.submit(() -> changes.apply(change));
      try {
        MapChangeMover.Result done = result.get(CHANGE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return new ChangeOutcome(done, Duration.ofNanos(System.nanoTime() - started));
      } catch (TimeoutException e) {
        changes.mover().cancel(); // it stops at its next step, never while shards are frozen
        try {
          result.get(CANCEL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | CancellationException ended) {
          // cancelled (MoveCancelledException), failed, or still running: reported below
        }
        throw new DemoException(
            what
                + " did not end within "
                + CHANGE_TIMEOUT.toSeconds()
                + " s (cancelled; the mover was at "
                + ProgressLine.moving(what, changes.mover().progress())
                + ")");
      } catch (ExecutionException e) {
        throw new DemoException(what + " failed: " + e.getCause(), e.getCause());
      } finally {
        running = null;
      }
    }
  }

  /**
   * What a map change with its data did, and how long it took as the demo saw it (from the submit
   * to the end, cleanup included).
   */
  record ChangeOutcome(MapChangeMover.Result result, Duration elapsed) {

    boolean complete() {
      return result.complete();
    }

    List<GroupOutcome> groups() {
      return result.moves().stream().flatMap(move -> move.groups().stream()).toList();
    }

    int shardsMoved() {
      return result.moves().stream().mapToInt(move -> move.shardsCutOver().size()).sum();
    }

    long keysCopied() {
      return result.moves().stream().mapToLong(move -> move.progress().keysCopied()).sum();
    }

    long keysCopiedAgain() {
      return result.moves().stream().mapToLong(move -> move.progress().keysRecopied()).sum();
    }

    long liftedFreezes() {
      return groups().stream().filter(group -> !group.cutOver()).count();
    }

    long writesAfterCutover() {
      return result.moves().stream().mapToLong(MoveResult::writesAfterCutoverTotal).sum();
    }

    /**
     * {@code 256 shards moved with their keys in 3.4 s: 2,601 keys copied (118 again after a
     * change), 8 freezes p50 4.1 ms, p99 9.8 ms, max 11 ms; 0 writes after cutover}.
     */
    String summary() {
      List<Long> freezes =
          groups().stream().map(group -> group.freezeDuration().toNanos() / 1000).sorted().toList();
      String notMoved =
          result.moves().stream()
              .flatMap(move -> move.shardsNotMoved().entrySet().stream())
              .map(entry -> "shard " + entry.getKey() + ": " + entry.getValue())
              .limit(3)
              .collect(Collectors.joining("; "));
      return String.format(
          Locale.ROOT,
          "%d shard%s moved with %s keys in %.1f s: %,d keys copied (%,d again after a change),"
              + " %d freeze%s%s p50 %s, p99 %s, max %s; %,d writes after cutover%s",
          shardsMoved(),
          shardsMoved() == 1 ? "" : "s",
          shardsMoved() == 1 ? "its" : "their",
          seconds(elapsed.toNanos()),
          keysCopied(),
          keysCopiedAgain(),
          freezes.size(),
          freezes.size() == 1 ? "" : "s",
          liftedFreezes() == 0
              ? ""
              : " (" + liftedFreezes() + " lifted with nothing moved, tried again)",
          ProgressLine.latency(percentile(freezes, 0.50)),
          ProgressLine.latency(percentile(freezes, 0.99)),
          ProgressLine.latency(percentile(freezes, 1.0)),
          writesAfterCutover(),
          notMoved.isEmpty() ? "" : "; not moved: " + notMoved);
    }
  }

  /** The nearest-rank percentile of sorted values, -1 when there is none. */
  static long percentile(List<Long> sorted, double fraction) {
    if (sorted.isEmpty()) {
      return -1;
    }
    int rank = (int) Math.ceil(fraction * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
  }

  /**
   * Gives the shard of the hottest key to another leader with its keys ({@code move-shard} through
   * the mover): they are copied live, the shard is frozen for a moment while the drivers
   * acknowledge, then cut over.
   */
  private static void moveHottestShard(
      Playground playground,
      JumpgateClient client,
      ChangeRunner runner,
      ProgressLine progress,
      long start)
      throws InterruptedException {
    int shard = Xxh64JumpRouter.forShards(Playground.SHARDS).shardOfUtf8(Workload.HOTTEST_KEY);
    ShardRoute route = client.topology().route(shard);
    String from = route.isAvailable() ? route.leader().id() : Playground.leaderId(shard % 3);
    // Never to leader-1, which fails over later: the moved shard stays where it went.
    String to =
        from.equals(Playground.leaderId(2)) ? Playground.leaderId(0) : Playground.leaderId(2);
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs move: shard %d (it holds %s, the hottest key) from %s to %s, with its keys:"
                + " copied live, frozen a moment while the drivers acknowledge, cut over",
            seconds(System.nanoTime() - start),
            shard,
            Workload.HOTTEST_KEY,
            from,
            to));
    ChangeOutcome moved = runner.apply(MapChange.moveShard(shard, to), "move-shard");
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs move: %s; the driver routes it to %s (topology rev %d)",
            seconds(System.nanoTime() - start),
            moved.summary(),
            client.topology().route(shard).isAvailable()
                ? client.topology().route(shard).leader().id()
                : "nothing",
            client.topology().revision()));
  }

  /**
   * Adds {@value Playground#NEW_NODE} with its data ({@code add-node} through the mover): its node
   * entry first, then the shards it takes over move with their keys (live copy, a freeze of
   * milliseconds per group, cutover), then the planner's replica slots are written to the map
   * alone; then the replica slots are aligned with the Redis replication again ({@link
   * Playground#alignReplicas}).
   *
   * <p>Replica slots: the planner gives {@value Playground#NEW_NODE} replica slots of other
   * leaders' shards and leaves the old replicas on the shards that moved to it, but no server
   * replicates {@value Playground#NEW_NODE} and it replicates nothing. The driver reads from the
   * leaders only ({@link ReadPolicy#LEADER}), so the workload's reads stay right either way; the
   * realignment keeps the map honest for a failover later (and for {@code --keep}).
   */
  private static ChangeOutcome addNode(
      Playground playground,
      JumpgateClient client,
      ChangeRunner runner,
      ProgressLine progress,
      long start)
      throws InterruptedException {
    MapChange change = MapChange.addNode(playground.newNode());
    MapChangeMover.Planned planned = runner.changes().plan(change);
    Map<String, Integer> moving = new TreeMap<>();
    planned
        .leaderMoves()
        .ifPresent(
            plan ->
                plan.moves().values().forEach(move -> moving.merge(move.from(), 1, Integer::sum)));
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs add-node: %s joins the map; %d shards move to it with their keys (%s)",
            seconds(System.nanoTime() - start),
            Playground.NEW_NODE,
            moving.values().stream().mapToInt(Integer::intValue).sum(),
            moving.entrySet().stream()
                .map(entry -> entry.getValue() + " from " + entry.getKey())
                .collect(Collectors.joining(", "))));
    ChangeOutcome added = runner.apply(change, "add-node");
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs add-node: %s",
            seconds(System.nanoTime() - start),
            added.summary()));
    MapWrite aligned = playground.alignReplicas();
    if (aligned.shards() > 0) {
      awaitRevision(client, aligned.revision());
    }
    progress.event(
        String.format(
            Locale.ROOT,
            "         replica slots realigned with Redis replication (map only): %d shards, rev %d;"
                + " %s has no replica",
            aligned.shards(),
            client.topology().revision(),
            Playground.NEW_NODE));
    return added;
  }

  /**
   * Reads every key of the workload from the Redis masters directly and checks it against what the
   * workload wrote ({@link KeyPlacementCheck}); prints the result.
   */
  private static KeyPlacementCheck.Result checkEveryKey(
      Playground playground, JumpgateClient client, WriteLedger ledger, PrintWriter out) {
    TopologySnapshot topology = client.topology();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(topology.shardCount());
    long started = System.nanoTime();
    Map<String, Map<String, String>> masters = playground.readMasters();
    KeyPlacementCheck.Result result =
        KeyPlacementCheck.check(
            masters,
            key -> {
              ShardRoute route = topology.route(router.shardOfUtf8(key));
              return route.isAvailable() ? route.leader().id() : "(shard unavailable)";
            },
            ledger);
    if (result.passed()) {
      out.println(
          String.format(
              Locale.ROOT,
              "key check: 0 errors, every key checked (%,d keys)",
              result.keysChecked()));
    } else {
      out.println(
          String.format(
              Locale.ROOT,
              "key check: %,d error(s) in %,d keys:",
              result.errors(),
              result.keysChecked()));
      result.firstErrors().forEach(error -> out.println("  " + error));
      if (result.errors() > result.firstErrors().size()) {
        out.println(
            String.format(
                Locale.ROOT, "  and %,d more", result.errors() - result.firstErrors().size()));
      }
    }
    out.println(
        String.format(
            Locale.ROOT,
            "  read from the %d masters directly (%s) with KEYS and MGET, not through the"
                + " driver, in %.0f ms:",
            masters.size(),
            String.join(", ", masters.keySet()),
            millis(System.nanoTime() - started)));
    out.println(
        String.format(
            Locale.ROOT,
            "  %,d keys hold their last acknowledged value (counters: their acknowledged INCRs)"
                + " on the node that leads their shard at rev %d, %,d are absent as written"
                + " (never set, or deleted)%s; %,d had a failed write, either outcome accepted",
            result.withValue(),
            topology.revision(),
            result.keysChecked() - result.withValue(),
            result.passed() ? ", no key is anywhere else" : "",
            result.uncertain()));
    out.flush();
    return result;
  }

  /**
   * Redis FAILOVER of leader-1 to replica-1, then the map: every shard of leader-1 to replica-1.
   * Returns the workload's counts at the moment the driver routes with the new map; returns a short
   * settling time later, having printed the errors of the switch.
   */
  private static Snapshot failOver(
      Playground playground,
      JumpgateClient client,
      Workload workload,
      ProgressLine progress,
      long start) {
    String to = Playground.partnerOf(FAILED_LEADER);
    Snapshot before = workload.snapshot();
    long sent = System.nanoTime();
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs failover: FAILOVER on %s: it pauses writes until %s has caught up, then"
                + " they swap roles",
            seconds(sent - start),
            FAILED_LEADER,
            to));
    playground.redisFailover(FAILED_LEADER, FAILOVER_TIMEOUT);
    long promoted = System.nanoTime();
    MapWrite change = playground.failOverMap(FAILED_LEADER, to);
    long written = System.nanoTime();
    long applied = awaitRevision(client, change.revision());
    Snapshot routed = workload.snapshot();
    pause(SETTLE); // let the commands that were waiting or retrying end
    Snapshot after = workload.snapshot();
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs failover: %s is master (%.0f ms after FAILOVER); map updated at revision"
                + " %d: %d shards to %s, %s their replica",
            seconds(System.nanoTime() - start),
            to,
            millis(promoted - sent),
            change.revision(),
            change.shards(),
            to,
            FAILED_LEADER));
    progress.event(
        String.format(
            Locale.ROOT,
            "         the driver routes with it %s after the write; errors during the switch:"
                + " %,d",
            ProgressLine.latency((applied - written) / 1000),
            after.failed() - before.failed()));
    return routed;
  }

  /** Waits (bounded) until the driver routes with {@code revision}; returns when it did. */
  private static long awaitRevision(JumpgateClient client, long revision) {
    long deadline = System.nanoTime() + REVISION_TIMEOUT.toNanos();
    while (client.topology().revision() < revision) {
      if (System.nanoTime() > deadline) {
        throw new DemoException(
            "the driver did not apply topology revision "
                + revision
                + " within "
                + REVISION_TIMEOUT.toSeconds()
                + " s (it routes with revision "
                + client.topology().revision()
                + ")");
      }
      pause(Duration.ofMillis(2));
    }
    return System.nanoTime();
  }

  /** Shards led, Redis role, keys (DBSIZE) and commands served, per node. */
  private static void printDistribution(
      PrintWriter out,
      Playground playground,
      TopologySnapshot topology,
      SimpleMeterRegistry registry,
      MetricsSummary.Baseline baseline) {
    Map<String, Integer> led = new TreeMap<>();
    for (ShardRoute route : topology.routes()) {
      if (route.isAvailable()) {
        led.merge(route.leader().id(), 1, Integer::sum);
      }
    }
    Map<String, Long> served = MetricsSummary.commandsByNode(registry);
    // from the end of the warm-up, as the workload's figures
    baseline.commandsByNode().forEach((node, before) -> served.merge(node, -before, Long::sum));
    out.println(
        String.format(
            Locale.ROOT,
            "routing at topology revision %d (%d shards):",
            topology.revision(),
            topology.shardCount()));
    out.println(
        String.format(
            Locale.ROOT,
            "  %-10s %-16s %-8s %10s %8s %10s",
            "NODE",
            "ADDRESS",
            "ROLE",
            "SHARDS LED",
            "KEYS",
            "COMMANDS"));
    for (Map.Entry<String, LocalNode> node : playground.nodes().entrySet()) {
      String id = node.getKey();
      String role = playground.role(id);
      out.println(
          String.format(
              Locale.ROOT,
              "  %-10s %-16s %-8s %10d %,8d %,10d",
              id,
              node.getValue().address(),
              role.equals("slave") ? "replica" : role,
              led.getOrDefault(id, 0),
              playground.keyCount(id),
              served.getOrDefault(id, 0L)));
    }
    out.println("  KEYS: DBSIZE of each server (a replica holds a copy of its leader's keys)");
    out.println(
        "  COMMANDS: the commands whose last try went to the node (each part of a split MGET"
            + " counts on its node), during the workload");
    out.flush();
  }

  /** --keep: the flags to reach the cluster, the pids, how to stop it. */
  private static void printHowToReach(Playground playground, PrintWriter out) {
    String etcd = playground.etcdEndpoint();
    Map<String, Long> pids = playground.pids();
    String flags = "--etcd " + etcd + " --cluster " + Playground.CLUSTER;
    out.println("the cluster keeps running (--keep); reach it with " + flags + ", e.g.:");
    out.println("  bin/jumpgate topology show " + flags);
    out.println("  bin/jumpgate route " + flags + " " + Workload.HOTTEST_KEY);
    out.println(
        "  the driver: EtcdTopologyOptions.builder().endpoints(\""
            + etcd
            + "\").cluster(\""
            + Playground.CLUSTER
            + "\") (README's Hello.java: pass "
            + etcd
            + ")");
    out.println(
        "pids: "
            + pids.entrySet().stream()
                .map(entry -> entry.getKey() + " " + entry.getValue())
                .collect(Collectors.joining(", ")));
    out.println("data and logs: " + playground.directory());
    out.println(
        "stop it with: kill "
            + pids.values().stream().map(String::valueOf).collect(Collectors.joining(" "))
            + " && rm -rf "
            + playground.directory());
    out.flush();
  }

  /** Stops every process and deletes the temp dir. */
  private static void shutDown(Playground playground, PrintWriter out) {
    int stopped = playground.stopServers();
    out.println(
        "cluster stopped: " + stopped + " processes ended, " + playground.directory() + " removed");
    out.flush();
  }

  /** The shutdown hook: Ctrl-C (or a kill) while the demo runs, once the cluster has started. */
  private static void stopOnInterrupt(Playground playground, PrintWriter err) {
    if (playground == null) {
      return; // the testkit's own hook stops what it started
    }
    String outcome;
    try {
      outcome =
          playground.stopServers() + " processes stopped, " + playground.directory() + " removed";
    } catch (RuntimeException e) {
      outcome = e.getMessage();
    }
    err.println();
    err.println("jumpgate demo: interrupted; " + outcome);
    err.flush();
  }

  private static void removeShutdownHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs (or ran) anyway
    }
  }

  private static void say(PrintWriter out, String line) {
    out.println(line);
    out.flush();
  }

  /** A pacing pause between probes of the demo's own waits, which are all bounded. */
  static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoException("interrupted", e);
    }
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left = nanoTime - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  /** {@code 20 s}, {@code 1 min 30 s}. */
  static String describe(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    long seconds = duration.toSeconds();
    if (seconds < 60) {
      return duration.toMillis() % 1000 == 0
          ? seconds + " s"
          : String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
    long minutes = seconds / 60;
    return minutes + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }
}
