package io.jumpgate.bench.timing;

import io.jumpgate.bench.timing.MigrationWorkload.Stage;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.MoverFlags;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.migration.ShardCopierOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node added live with its data, under load (issue 12): the whole {@code add-node} of {@link
 * MapChangeMover}, not the copier alone ({@link CopyRateRun} measures that).
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.jumpgate.bench.timing.MigrationRun --results
 * DIR [--quick] [--copy-rate KEYS_PER_SECOND] [--batch-size KEYS] [--pipeline-depth BATCHES]
 * [--group-size SHARDS] [--copy-method migrate|dump-restore|script] [--mover-process
 * [--mover-jvm-options "OPTIONS"] [--mover-priority normal|nice|idle|idle-copy]]} ({@code
 * --mover-process}: the mover in a JVM of its own, as an operator's {@code bin/jumpgate add-node
 * --apply} runs it, with bin/jumpgate's {@code -XX:TieredStopAtLevel=1} unless {@code
 * --mover-jvm-options} replaces it, at the CPU priority {@code --mover-priority} gives ({@link
 * MoverPriority}; {@code normal} by default; the servers and etcd always run at the normal
 * priority); the mover's options: {@link ShardCopierOptions#copyKeysPerSecond()}, none by default,
 * and the other defaults of {@link ShardCopierOptions} and {@link MoverOptions})
 *
 * <p>etcd and 3 redis-server leaders of a 1024-shard map (the IT fixture: free loopback ports, temp
 * dirs), plus a 4th, empty redis-server. 1,000,000 keys (100,000 with {@code --quick}) of 100
 * random bytes, one in ten with a TTL of an hour, are written straight to their owners (pipelined
 * Lettuce, routed with {@link Xxh64JumpRouter} and the map). Then the {@link MigrationWorkload}
 * runs through a {@code JumpgateClient} (default options): a warm-up, a window {@code before}, the
 * add-node ({@code MapChangeMover.apply(MapChange.addNode(...))}, default {@link MoverOptions}:
 * MIGRATE, batches of 1,000, groups of 8 shards, cleanup grace 5 s), and a window {@code after};
 * every stage of the mover ({@link MoveListener#phaseStarted}) is a stage of the workload.
 *
 * <p>Measured: the copy rate (keys the copy phase sent over its length, and MB/s from the targets'
 * input bytes), the freeze of every cutover attempt ({@link GroupOutcome#freezeDuration()}: freeze
 * transaction to cutover transaction; p50/p99/max), the workload's ops/s per stage, its latency
 * while the data moved (prepare, copy, cutover), its errors, and at the end a check of every key on
 * every server ({@link MigrationCheck}). Writes {@code DIR/migration.json}, {@code
 * DIR/migration-timeline.csv} (the workload's ops/s per 100 ms), {@code DIR/migration-progress.csv}
 * (the mover's progress, read every 100 ms from another thread) and {@code
 * DIR/migration-throughput.png}. Exits with 1 when the run or the check fails, or there was an
 * error; a missed performance target is reported, not a failure. Not thread-safe: one run per JVM.
 */
public final class MigrationRun {

  static final String CLUSTER = "migration";
  static final int SHARDS = 1024;
  static final int NODES = 3;
  static final String ADDED_NODE = "added-node";
  static final int KEYS = 1_000_000;
  static final int QUICK_KEYS = 100_000;
  static final long TTL_MILLIS = 3_600_000;

  /** Issue 12's targets. */
  static final double TARGET_FREEZE_P99_MILLIS = 100;

  static final double TARGET_FREEZE_P50_MILLIS = 30;
  static final double TARGET_COPY_KEYS_PER_SECOND = 100_000;
  static final double TARGET_THROUGHPUT_RATIO = 0.7;

  private MigrationRun() {}

  public static void main(String[] args) throws Exception {
    TimingArguments arguments;
    MoverOptions options;
    boolean moverProcess;
    // What bin/jumpgate gives the verbs that move data: the JIT's first tier only.
    List<String> moverJvmOptions = List.of("-XX:TieredStopAtLevel=1");
    List<String> moverFlags;
    MoverPriority moverPriority = MoverPriority.NORMAL;
    try {
      List<String> rest = new ArrayList<>(List.of(args));
      moverProcess = rest.remove("--mover-process");
      int priorityAt = rest.indexOf("--mover-priority");
      if (priorityAt >= 0) {
        if (priorityAt + 1 >= rest.size() || !moverProcess) {
          throw new IllegalArgumentException(
              "MigrationRun: --mover-priority normal|nice|idle|idle-copy goes with --mover-process");
        }
        moverPriority = MoverPriority.parse(rest.get(priorityAt + 1));
        rest.subList(priorityAt, priorityAt + 2).clear();
      }
      int jvmAt = rest.indexOf("--mover-jvm-options");
      if (jvmAt >= 0) {
        if (jvmAt + 1 >= rest.size()) {
          throw new IllegalArgumentException(
              "MigrationRun: --mover-jvm-options needs the options as one argument");
        }
        moverJvmOptions = List.of(rest.get(jvmAt + 1).trim().split("\\s+"));
        rest.subList(jvmAt, jvmAt + 2).clear();
        if (!moverProcess) {
          throw new IllegalArgumentException(
              "MigrationRun: --mover-jvm-options goes with --mover-process");
        }
      }
      MoverFlags.Parsed mover = MoverFlags.parse("MigrationRun", rest);
      arguments = TimingArguments.parse("MigrationRun", rest.toArray(String[]::new));
      options = mover.options();
      moverFlags = mover.flags();
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    System.setProperty("java.awt.headless", "true");
    boolean quick = arguments.quick();
    int keys = quick ? QUICK_KEYS : KEYS;
    Duration warmUp = Duration.ofSeconds(quick ? 3 : 5);
    Duration window = Duration.ofSeconds(quick ? 3 : 5);
    ProcessFixture fixture = new ProcessFixture();
    Map<String, Object> json;
    MigrationWorkload workload;
    MoveProgressSampler progress;
    try (AutoCloseable scope = fixture.openScope("migration")) {
      MoverLaunch launch =
          moverProcess
              ? new MoverLaunch(moverJvmOptions, moverPriority, moverFlags, arguments.results())
              : null;
      Outcome outcome = runOnce(fixture, keys, warmUp, window, options, launch);
      json = outcome.json();
      workload = outcome.workload();
      progress = outcome.progress();
    } catch (RuntimeException e) {
      System.err.println("migration: FAILED: " + e);
      e.printStackTrace();
      System.exit(1);
      return;
    }
    Map<String, Object> setup = setup(quick, keys, warmUp, window, options);
    setup.put(
        "mover",
        moverProcess
            ? "a JVM of its own (--mover-process), JVM options "
                + moverJvmOptions
                + ", CPU priority "
                + moverPriority.label()
            : "in the workload's JVM");
    json.put("setup", setup);
    Path results = arguments.results();
    Path file = results.resolve("migration.json");
    JsonText.writeFile(file, json);
    writeTimeline(results.resolve("migration-timeline.csv"), workload);
    progress.writeCsv(results.resolve("migration-progress.csv"));
    MigrationChart.write(results.resolve("migration-throughput.png"), workload, progress, keys);
    System.out.println(headline(json) + " -> " + file);
    System.exit(Boolean.TRUE.equals(json.get("passed")) ? 0 : 1);
  }

  /**
   * A mover in a JVM of its own: its JVM options, its CPU priority, its flags, and where its stderr
   * goes.
   */
  private record MoverLaunch(
      List<String> jvmOptions, MoverPriority priority, List<String> flags, Path results) {}

  /** What a run produced: its JSON, and the workload for the timeline and the chart. */
  private record Outcome(
      Map<String, Object> json, MigrationWorkload workload, MoveProgressSampler progress) {}

  private static Outcome runOnce(
      ProcessFixture fixture,
      int keys,
      Duration warmUp,
      Duration window,
      MoverOptions options,
      MoverLaunch launch)
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, CLUSTER, SHARDS, NODES, 0);
    RedisProcess added = fixture.redis();
    EtcdTopologyOptions etcd =
        EtcdTopologyOptions.builder()
            .endpoints(cluster.etcd().endpointList())
            .cluster(cluster.cluster())
            .build();
    Map<String, Integer> ports = new LinkedHashMap<>();
    for (int index = 0; index < NODES; index++) {
      ports.put(LocalCluster.leaderId(index), cluster.leader(index).port());
    }
    ports.put(ADDED_NODE, added.port());
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    Map<String, Object> json = new LinkedHashMap<>();
    RedisClient direct = RedisClient.create();
    fixture.register(() -> direct.shutdown(Duration.ZERO, Duration.ofSeconds(5)));
    Map<String, StatefulRedisConnection<String, String>> servers =
        MigrationCheck.connect(direct, ports);

    TopologyAdminState before = readMap(etcd);
    long loadStart = System.nanoTime();
    preload(direct, ports, before, router, keys);
    double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
    log(String.format(Locale.ROOT, "loaded %,d keys in %.1f s", keys, loadSeconds));
    Map<String, Object> load = new LinkedHashMap<>();
    load.put("keys", keys);
    load.put("seconds", loadSeconds);
    load.put("keysPerSecond", keys / loadSeconds);
    json.put("preload", load);

    Node node = Node.of(ADDED_NODE, "127.0.0.1", added.port());
    JumpgateClient client =
        fixture.register(JumpgateClient.create(JumpgateOptions.builder().etcd(etcd).build()));
    MigrationWorkload workload = new MigrationWorkload(client.connect().sync(), keys);
    Map<String, Long> pids = new LinkedHashMap<>();
    for (int index = 0; index < NODES; index++) {
      pids.put(LocalCluster.leaderId(index) + " (redis)", cluster.leader(index).pid());
    }
    pids.put(ADDED_NODE + " (redis)", added.pid());
    for (int index = 0; index < cluster.etcd().size(); index++) {
      pids.put("etcd " + index, cluster.etcd().member(index).pid());
    }
    MoveListener[] listenerOfChild = new MoveListener[1];
    AtomicLong childPid = new AtomicLong();
    MoverChild child = null;
    MoveProgressSampler pushedProgress = null;
    if (launch != null) {
      List<String> childArguments = new ArrayList<>();
      childArguments.add(cluster.etcd().endpointList());
      childArguments.add(cluster.cluster());
      childArguments.add(ADDED_NODE);
      childArguments.add("127.0.0.1");
      childArguments.add(String.valueOf(added.port()));
      childArguments.addAll(launch.flags());
      MoveProgressSampler pushed = new MoveProgressSampler(workload.startNanos());
      pushedProgress = pushed;
      child =
          fixture.register(
              MoverChild.start(
                  launch.priority().launcher(),
                  launch.jvmOptions(),
                  childArguments,
                  launch.results().resolve("mover-child.stderr"),
                  Duration.ofSeconds(60),
                  phase -> {
                    launch.priority().phaseStarted(phase, childPid.get());
                    listenerOfChild[0].phaseStarted(phase);
                  },
                  pushed::record));
      pids.put("mover JVM", child.pid());
      childPid.set(child.pid());
      json.put("moverScheduling", MoverPriority.scheduling(child.pid()));
    }
    ProcessCpuLedger cpu = new ProcessCpuLedger(pids);
    java.util.function.Consumer<Stage> enter =
        stage -> {
          workload.enter(stage);
          cpu.mark(stage.label());
        };
    List<Map<String, Object>> marks = new CopyOnWriteArrayList<>();
    MoveListener listener =
        new MoveListener() {
          @Override
          public void phaseStarted(MovePhase phase) {
            marks.add(mark(workload, phase.name().toLowerCase(Locale.ROOT)));
            switch (phase) {
              case PREPARE -> enter.accept(Stage.PREPARE);
              case COPY -> enter.accept(Stage.COPY);
              case CUTOVER -> enter.accept(Stage.CUTOVER);
              case CLEANUP -> enter.accept(Stage.CLEANUP);
              default -> enter.accept(Stage.FINISHING);
            }
          }
        };
    listenerOfChild[0] = listener;
    MapChangeMover.Result result;
    SortedSet<Integer> movingShards;
    MachineLoad machineAtStart;
    MachineLoad machineAtEnd;
    MoveProgressSampler progress;
    try (MapChangeMover changes =
        child == null ? MapChangeMover.create(etcd, options, listener) : null) {
      if (changes != null) {
        progress = new MoveProgressSampler(changes.mover(), workload.startNanos());
        movingShards = new TreeSet<>();
        changes
            .plan(MapChange.addNode(node))
            .leaderMoves()
            .ifPresent(plan -> movingShards.addAll(plan.moves().keySet()));
      } else {
        progress = pushedProgress;
        movingShards = child.movingShards();
      }
      workload.start();
      cpu.mark(Stage.WARMUP.label());
      try {
        // Timed windows: the workload runs for these lengths; nothing waits for another thread.
        Thread.sleep(warmUp.toMillis());
        enter.accept(Stage.BEFORE);
        Thread.sleep(window.toMillis());
        log(
            String.format(
                Locale.ROOT,
                "before: %.0f ops/s; adding %s (%d shards move)",
                workload.opsPerSecond(Stage.BEFORE),
                ADDED_NODE,
                movingShards.size()));
        machineAtStart = MachineLoad.now();
        marks.add(mark(workload, "apply"));
        enter.accept(Stage.PREPARE);
        progress.start();
        try {
          result =
              changes != null
                  ? changes.apply(MapChange.addNode(node))
                  : child.apply(Duration.ofMinutes(30));
        } finally {
          progress.stop();
        }
        marks.add(mark(workload, "applied"));
        enter.accept(Stage.AFTER);
        machineAtEnd = MachineLoad.now();
        Thread.sleep(window.toMillis());
      } finally {
        workload.stop();
        cpu.mark(Stage.STOPPED.label());
      }
    }
    log(
        String.format(
            Locale.ROOT,
            "after: %.0f ops/s; checking every key on every server",
            workload.opsPerSecond(Stage.AFTER)));

    TopologyAdminState after = readMap(etcd);
    List<String> uncertain = new ArrayList<>();
    Map<String, String> written = workload.expectedValues(uncertain);
    List<MigrationCheck.Expected> expected = new ArrayList<>(keys + written.size());
    for (int index = 0; index < keys; index++) {
      expected.add(
          new MigrationCheck.Expected(
              CopyRateRun.key(index), CopyRateRun.value(index), index % 10 == 0));
    }
    written.forEach((key, value) -> expected.add(new MigrationCheck.Expected(key, value, false)));
    long checkStart = System.nanoTime();
    Map<String, Object> check =
        new MigrationCheck(after, router, servers).run(expected, new HashSet<>(uncertain));
    check.put("seconds", (System.nanoTime() - checkStart) / 1e9);
    check.put("workloadKeysChecked", (long) written.size());

    BitSet moved = new BitSet(SHARDS);
    movingShards.forEach(moved::set);
    long keysInMovedShards = 0;
    for (int index = 0; index < keys; index++) {
      if (moved.get(router.shardOfUtf8(CopyRateRun.key(index)))) {
        keysInMovedShards++;
      }
    }
    json.put("shardsMoved", moved.cardinality());
    json.put("leadersOfAddedNode", after.leaderCounts().getOrDefault(ADDED_NODE, 0));
    json.put("preloadedKeysInMovedShards", keysInMovedShards);
    json.put("complete", result.complete());
    json.put("moverRuns", result.moves().size());
    json.putAll(measurements(workload, result));
    json.put("phaseMarks", marks);
    json.put("check", check);
    json.put("machine", machineAtEnd.since(machineAtStart));
    json.put("cpuCoresByStage", cpu.json());
    long errors = (Long) ((Map<?, ?>) json.get("errors")).get("total");
    json.put("passed", Boolean.TRUE.equals(check.get("passed")) && errors == 0);
    json.put("targets", targets(json, keys));
    return new Outcome(json, workload, progress);
  }

  private static Map<String, Object> mark(MigrationWorkload workload, String name) {
    Map<String, Object> mark = new LinkedHashMap<>();
    mark.put("name", name);
    mark.put("atMs", (System.nanoTime() - workload.startNanos()) / 1e6);
    // Wall-clock time too, to line the stages up with a JFR recording's events.
    mark.put("epochMs", System.currentTimeMillis());
    return mark;
  }

  /** Copy, freeze, throughput, latency and errors from the workload and the mover's result. */
  private static Map<String, Object> measurements(
      MigrationWorkload workload, MapChangeMover.Result result) {
    Map<String, Object> json = new LinkedHashMap<>();
    List<GroupOutcome> groups = new ArrayList<>();
    long keysCopied = 0;
    long keysRecopied = 0;
    long bytesCopied = 0;
    long keysCleanedUp = 0;
    long writesAfterCutover = 0;
    long shardsNotMoved = 0;
    for (MoveResult move : result.moves()) {
      groups.addAll(move.groups());
      MoveProgress progress = move.progress();
      keysCopied += progress.keysCopied();
      keysRecopied += progress.keysRecopied();
      bytesCopied += progress.bytesCopied();
      keysCleanedUp += progress.keysCleanedUp();
      writesAfterCutover += move.writesAfterCutoverTotal();
      shardsNotMoved += move.shardsNotMoved().size();
    }
    double copySeconds = workload.stageSeconds(Stage.COPY);
    Map<String, Object> copy = new LinkedHashMap<>();
    copy.put("seconds", copySeconds);
    copy.put("keysCopied", keysCopied);
    copy.put("keysRecopied", keysRecopied);
    copy.put("bytesCopied", bytesCopied);
    copy.put("keysPerSecond", copySeconds > 0 ? keysCopied / copySeconds : 0.0);
    copy.put("megabytesPerSecond", copySeconds > 0 ? bytesCopied / 1e6 / copySeconds : 0.0);
    copy.put("keysCleanedUp", keysCleanedUp);
    json.put("copy", copy);

    long[] freezes = new long[groups.size()];
    long[] acknowledgements = new long[groups.size()];
    int givenUp = 0;
    for (int index = 0; index < groups.size(); index++) {
      freezes[index] = groups.get(index).freezeDuration().toNanos();
      acknowledgements[index] = groups.get(index).acknowledgementWait().toNanos();
      givenUp += groups.get(index).cutOver() ? 0 : 1;
    }
    Map<String, Object> freeze = new LinkedHashMap<>();
    freeze.put("attempts", groups.size());
    freeze.put("givenUp", givenUp);
    if (groups.isEmpty()) {
      freeze.put("duration", null);
    } else {
      freeze.put("duration", LatencySummary.ofNanos(freezes).toJson());
      freeze.put("acknowledgementWait", LatencySummary.ofNanos(acknowledgements).toJson());
    }
    json.put("freeze", freeze);

    List<Stage> moving = List.of(Stage.PREPARE, Stage.COPY, Stage.CUTOVER);
    double before = workload.opsPerSecond(Stage.BEFORE);
    double during = workload.opsPerSecond(moving);
    Map<String, Object> throughput = new LinkedHashMap<>();
    throughput.put("beforeOpsPerSecond", before);
    throughput.put("duringOpsPerSecond", during);
    throughput.put("duringDefinition", "prepare + copy + cutover: from apply() to cleanup");
    throughput.put("duringRatio", before > 0 ? during / before : 0.0);
    throughput.put("afterOpsPerSecond", workload.opsPerSecond(Stage.AFTER));
    Map<String, Object> stages = new LinkedHashMap<>();
    for (Stage stage : workload.entered()) {
      if (stage == Stage.STOPPED) {
        continue;
      }
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("startMs", workload.stageStartMillis(stage));
      figures.put("seconds", workload.stageSeconds(stage));
      figures.put("opsPerSecond", workload.opsPerSecond(stage));
      figures.put("ratioToBefore", before > 0 ? workload.opsPerSecond(stage) / before : 0.0);
      figures.put("latency", workload.latency(stage));
      stages.put(stage.label(), figures);
    }
    throughput.put("stages", stages);
    json.put("throughput", throughput);
    json.put("latencyWhileMoving", workload.latencyWhileMoving());

    Map<String, Object> errors = new LinkedHashMap<>();
    errors.put("exceptions", workload.errors());
    errors.put("wrongReads", workload.wrongReads());
    errors.put("writesAfterCutover", writesAfterCutover);
    errors.put("shardsNotMoved", shardsNotMoved);
    errors.put(
        "total",
        workload.errorCount() + workload.wrongReads() + writesAfterCutover + shardsNotMoved);
    errors.put("examples", workload.errorExamples());
    json.put("errors", errors);
    return json;
  }

  static Map<String, Object> targets(Map<String, Object> json, int keys) {
    Map<String, Object> targets = new LinkedHashMap<>();
    Map<?, ?> freeze = (Map<?, ?>) json.get("freeze");
    Map<?, ?> duration = (Map<?, ?>) freeze.get("duration");
    double p99 = duration == null ? Double.NaN : (Double) duration.get("p99Ms");
    double p50 = duration == null ? Double.NaN : (Double) duration.get("p50Ms");
    target(targets, "freezeP99Ms", p99, "<=", TARGET_FREEZE_P99_MILLIS);
    target(targets, "freezeP50Ms", p50, "<=", TARGET_FREEZE_P50_MILLIS);
    double rate = (Double) ((Map<?, ?>) json.get("copy")).get("keysPerSecond");
    target(targets, "copyKeysPerSecond", rate, ">=", TARGET_COPY_KEYS_PER_SECOND);
    double ratio = (Double) ((Map<?, ?>) json.get("throughput")).get("duringRatio");
    target(targets, "duringOverBeforeOps", ratio, ">=", TARGET_THROUGHPUT_RATIO);
    long errors = (Long) ((Map<?, ?>) json.get("errors")).get("total");
    target(targets, "errors", errors, "<=", 0);
    Map<?, ?> check = (Map<?, ?>) json.get("check");
    long checked = (Long) check.get("keysChecked");
    target(targets, "keysChecked", checked, ">=", keys);
    Map<String, Object> passed = new LinkedHashMap<>();
    passed.put("measured", check.get("passed"));
    passed.put("met", check.get("passed"));
    targets.put("checkPassed", passed);
    return targets;
  }

  private static void target(
      Map<String, Object> targets, String name, double measured, String relation, double bound) {
    Map<String, Object> target = new LinkedHashMap<>();
    boolean known = Double.isFinite(measured);
    target.put("measured", known ? measured : null);
    target.put("target", relation + " " + bound);
    target.put("met", known && (relation.equals("<=") ? measured <= bound : measured >= bound));
    targets.put(name, target);
  }

  private static Map<String, Object> setup(
      boolean quick, int keys, Duration warmUp, Duration window, MoverOptions options) {
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("quick", quick);
    setup.put("keys", keys);
    setup.put("valueBytes", CopyRateRun.VALUE_BYTES);
    setup.put("keysWithTtl", "one in ten, " + TTL_MILLIS + " ms");
    setup.put("shards", SHARDS);
    setup.put("nodes", NODES + " redis-server leaders, then " + ADDED_NODE + " added");
    setup.put(
        "workload",
        MigrationWorkload.THREADS
            + " threads of one JumpgateClient (default options), closed loop, synchronous: 50 %"
            + " GET of a preloaded key, 25 % SET and 25 % INCR of the thread's own keys ("
            + MigrationWorkload.OWN_KEYS_PER_THREAD
            + " of each per thread)");
    setup.put("warmUpMs", warmUp.toMillis());
    setup.put("beforeAndAfterWindowMs", window.toMillis());
    setup.put("mover", options.toString());
    setup.put("copyKeysPerSecond", options.copier().copyKeysPerSecond());
    setup.put("availableProcessors", Runtime.getRuntime().availableProcessors());
    return setup;
  }

  private static String headline(Map<String, Object> json) {
    Map<?, ?> copy = (Map<?, ?>) json.get("copy");
    Map<?, ?> freeze = (Map<?, ?>) json.get("freeze");
    Map<?, ?> duration = (Map<?, ?>) freeze.get("duration");
    Map<?, ?> throughput = (Map<?, ?>) json.get("throughput");
    Map<?, ?> latency = (Map<?, ?>) json.get("latencyWhileMoving");
    Map<?, ?> errors = (Map<?, ?>) json.get("errors");
    Map<?, ?> check = (Map<?, ?>) json.get("check");
    long failedTargets =
        ((Map<?, ?>) json.get("targets"))
            .values().stream()
                .filter(target -> !Boolean.TRUE.equals(((Map<?, ?>) target).get("met")))
                .count();
    return String.format(
        Locale.ROOT,
        "migration: %d shards to %s; copy %,.0f keys/s, %.1f MB/s; freeze p50 %.1f ms, p99 %.1f"
            + " ms, max %.1f ms (%d attempts, %d given up); ops/s before %,.0f, during %,.0f"
            + " (%.2fx), after %,.0f; client p99 while moving %.0f us; errors %d; check %s (%,d"
            + " keys checked, %,d scanned); targets missed: %d",
        (Integer) json.get("shardsMoved"),
        ADDED_NODE,
        (Double) copy.get("keysPerSecond"),
        (Double) copy.get("megabytesPerSecond"),
        duration == null ? Double.NaN : (Double) duration.get("p50Ms"),
        duration == null ? Double.NaN : (Double) duration.get("p99Ms"),
        duration == null ? Double.NaN : (Double) duration.get("maxMs"),
        (Integer) freeze.get("attempts"),
        (Integer) freeze.get("givenUp"),
        (Double) throughput.get("beforeOpsPerSecond"),
        (Double) throughput.get("duringOpsPerSecond"),
        (Double) throughput.get("duringRatio"),
        (Double) throughput.get("afterOpsPerSecond"),
        (Double) latency.get("p99Us"),
        (Long) errors.get("total"),
        Boolean.TRUE.equals(check.get("passed")) ? "passed" : "FAILED " + check.get("examples"),
        (Long) check.get("keysChecked"),
        (Long) check.get("keysScanned"),
        failedTargets);
  }

  private static TopologyAdminState readMap(EtcdTopologyOptions etcd) {
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      return admin.read();
    }
  }

  /**
   * Writes every key to the leader of its shard, pipelined: commands are flushed per 1,000 per
   * server, and at most 10,000 per server wait for their answer.
   */
  private static void preload(
      RedisClient client,
      Map<String, Integer> ports,
      TopologyAdminState map,
      Xxh64JumpRouter router,
      int keys) {
    Map<String, StatefulRedisConnection<String, String>> connections =
        MigrationCheck.connect(client, ports);
    try {
      connections.values().forEach(connection -> connection.setAutoFlushCommands(false));
      SetArgs withTtl = SetArgs.Builder.px(TTL_MILLIS);
      Map<String, List<RedisFuture<?>>> inFlight = new LinkedHashMap<>();
      connections.keySet().forEach(node -> inFlight.put(node, new ArrayList<>()));
      for (int index = 0; index < keys; index++) {
        String key = CopyRateRun.key(index);
        String owner = map.assignments().get(router.shardOfUtf8(key)).leader();
        StatefulRedisConnection<String, String> connection = connections.get(owner);
        RedisAsyncCommands<String, String> async = connection.async();
        List<RedisFuture<?>> futures = inFlight.get(owner);
        futures.add(
            index % 10 == 0
                ? async.set(key, CopyRateRun.value(index), withTtl)
                : async.set(key, CopyRateRun.value(index)));
        if (futures.size() % 1_000 == 0) {
          connection.flushCommands();
        }
        if (futures.size() == 10_000) {
          await(futures);
        }
      }
      connections.values().forEach(StatefulRedisConnection::flushCommands);
      inFlight.values().forEach(MigrationRun::await);
    } finally {
      connections.values().forEach(StatefulRedisConnection::close);
    }
  }

  private static void await(List<RedisFuture<?>> futures) {
    if (!LettuceFutures.awaitAll(60, TimeUnit.SECONDS, futures.toArray(RedisFuture[]::new))) {
      throw new IllegalStateException("writes did not answer within 60 s");
    }
    futures.clear();
  }

  static RedisURI uri(int port) {
    return RedisURI.builder()
        .withHost("127.0.0.1")
        .withPort(port)
        .withTimeout(Duration.ofSeconds(60))
        .build();
  }

  private static void writeTimeline(Path file, MigrationWorkload workload) throws IOException {
    StringBuilder csv = new StringBuilder("seconds,opsPerSecond,stage\n");
    long[] counts = workload.timeline();
    List<Stage> entered = workload.entered();
    for (int bucket = 0; bucket < counts.length; bucket++) {
      double startMillis = bucket * (double) MigrationWorkload.BUCKET_MILLIS;
      csv.append(String.format(Locale.ROOT, "%.1f", startMillis / 1000))
          .append(',')
          .append(counts[bucket] * 1000 / MigrationWorkload.BUCKET_MILLIS)
          .append(',')
          .append(stageAt(workload, entered, startMillis).label())
          .append('\n');
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, csv, StandardCharsets.UTF_8);
  }

  /** The stage the workload was in at {@code millis} since its start. */
  static Stage stageAt(MigrationWorkload workload, List<Stage> entered, double millis) {
    Stage current = entered.get(0);
    for (Stage stage : entered) {
      if (workload.stageStartMillis(stage) <= millis) {
        current = stage;
      }
    }
    return current;
  }

  static void log(String message) {
    System.out.println("[migration " + java.time.LocalTime.now().withNano(0) + "] " + message);
    System.out.flush();
  }
}
