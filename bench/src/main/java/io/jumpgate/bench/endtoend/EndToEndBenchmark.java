package io.jumpgate.bench.endtoend;

import io.jumpgate.bench.timing.PropagationRun;
import io.jumpgate.driver.NettyTransport;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end comparison that {@code bin/bench} runs: Jumpgate, direct Lettuce, Lettuce's
 * cluster client and Lettuce through twemproxy, measured in alternation (per case and round, in an
 * order that rotates by one system each round: {@link RoundOrder}) on identical closed-loop
 * workloads, against processes started on 127.0.0.1; then the propagation, failover and migration
 * timing mains (package {@code io.jumpgate.bench.timing}) in their own JVMs; then summary.json,
 * points.csv, the charts and the printed tables under the results dir. Every process is killed at
 * the end, on failure and on Ctrl-C.
 */
public final class EndToEndBenchmark {
  private static final long SEED = 20_261_122L;

  /** The timing mains, by the summary.json field their JSON file goes under. */
  private static final Map<String, String> TIMING_RUNS =
      Map.of(
          "propagation", "io.jumpgate.bench.timing.PropagationRun",
          "failover", "io.jumpgate.bench.timing.FailoverRun",
          "migration", "io.jumpgate.bench.timing.MigrationRun");

  private static final List<String> TIMING_ORDER = List.of("propagation", "failover", "migration");

  /**
   * What a run writes in the results dir, deleted before it starts so that nothing there (a chart
   * of a system not measured this time, the JSON of a timing run that fails) comes from an earlier
   * run.
   */
  static final List<String> OUTPUTS =
      List.of(
          "summary.json",
          "points.csv",
          "systems.md",
          "ratios.md",
          "targets.md",
          "throughput-16.png",
          "throughput-64.png",
          "latency-p99-16.png",
          "latency-p99-64.png",
          "ratio-direct.png",
          "ratio-lettuceCluster.png",
          "ratio-twemproxy.png",
          "propagation.json",
          "failover.json",
          "migration.json",
          "migration-timeline.csv",
          "migration-progress.csv",
          "migration-throughput.png");

  private EndToEndBenchmark() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(BenchOptions.USAGE);
      System.exit(0);
      return;
    }
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bench: " + e.getMessage());
      System.exit(2);
      return;
    }
    // Before any Lettuce class reads them: the transport of every system in this JVM.
    transportProperties(options.transport()).forEach(System::setProperty);
    long started = System.nanoTime();
    String machine = Machine.describe();
    Files.createDirectories(options.results());
    for (String output : OUTPUTS) {
      Files.deleteIfExists(options.results().resolve(output));
    }
    log("machine: " + machine);
    log(
        String.format(
            Locale.ROOT,
            "%s run: %d rounds, %d ms warm-up + %d ms measured per point, systems %s, workloads"
                + " %s, in flight %s, transport %s, Jumpgate write coalescing %s",
            options.quick() ? "quick" : "full",
            options.rounds(),
            options.warmupMillis(),
            options.measureMillis(),
            options.systems(),
            options.workloads().stream().map(Workload::label).toList(),
            options.inflights(),
            options.transport(),
            options.coalescing() ? "on" : "off"));
    List<Point> points = measure(options);
    Summary summary = new Summary(points);
    Path results = options.results();
    summary.writeCsv(results.resolve("points.csv"));

    Map<String, Path> timingFiles = new LinkedHashMap<>();
    Map<String, String> timingRuns = new LinkedHashMap<>();
    for (String name : TIMING_ORDER) {
      String outcome =
          options.timing()
              ? runTimingMain(TIMING_RUNS.get(name), options)
              : "skipped (--no-timing)";
      timingRuns.put(name, outcome);
      Path file = results.resolve(name + ".json");
      if (outcome.startsWith("done") && Files.isRegularFile(file)) {
        timingFiles.put(name, file);
      }
    }
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("mode", options.quick() ? "quick" : "full");
    run.put("startedAt", Instant.now().minusNanos(System.nanoTime() - started).toString());
    run.put("rounds", options.rounds());
    run.put("warmupMs", options.warmupMillis());
    run.put("measureMs", options.measureMillis());
    run.put("keys", options.keyCount());
    run.put("valueBytes", KeySpace.VALUE_SIZE);
    run.put("shards", Servers.SHARDS);
    run.put("nodes", Servers.NODES);
    run.put(
        "alternation",
        "per workload and in-flight limit, the systems in an order rotated by one each round");
    run.put("roundOrder", RoundOrder.all(options.systems(), options.rounds()));
    run.put("transport", options.transport());
    run.put("jumpgateWriteCoalescing", options.coalescing());
    run.put(
        "clientCpuUsPerRequest",
        "CPU time of the whole bench JVM (user + system) over the measured window / requests");
    run.put(
        "readWriteSyscallsPerRequest",
        "the bench JVM's read+write syscalls (/proc/self/io syscr + syscw) over the measured window"
            + " / requests; epoll_wait, futex and io_uring submissions not counted");
    run.put("invalidCells", summary.invalidCells());
    run.put("timingRuns", timingRuns);
    summary.writeJson(results.resolve("summary.json"), machine, run, timingFiles);
    List<Path> charts = Charts.write(summary, results);
    Summary.writeText(results.resolve("systems.md"), summary.systemTable());
    Summary.writeText(results.resolve("ratios.md"), summary.ratioTable());
    Summary.writeText(results.resolve("targets.md"), summary.targetTable());

    System.out.println();
    System.out.println("Throughput and latency per system (median over rounds):");
    System.out.println(summary.systemTable());
    System.out.println("Targets (issue 6):");
    System.out.println(summary.targetTable());
    System.out.println(
        "Jumpgate throughput / other system, median (min-max) over "
            + options.rounds()
            + " alternating rounds ("
            + (options.quick() ? "quick" : "full")
            + " run):");
    System.out.println(summary.ratioTable());
    if (!summary.invalidCells().isEmpty()) {
      System.out.println(
          "INVALID cells (a request failed; no figure of theirs is in a median, ratio or chart): "
              + String.join(", ", summary.invalidCells()));
    }
    System.out.println(
        "results: "
            + results.toAbsolutePath()
            + " (summary.json, points.csv, "
            + charts.size()
            + " charts); took "
            + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)
            + " s");
    System.exit(0);
  }

  private static List<Point> measure(BenchOptions options) throws Exception {
    KeySpace keys = new KeySpace(options.keyCount(), SEED);
    ProcessFixture fixture = new ProcessFixture();
    List<Point> points = new ArrayList<>();
    try (AutoCloseable scope = fixture.openScope("bench")) {
      long start = System.nanoTime();
      Servers servers = Servers.start(fixture);
      log("servers up in " + millisSince(start) + " ms");
      ClientResources resources = DefaultClientResources.create();
      fixture.register(() -> resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS));
      String transport = NettyTransport.current();
      if (!transport.equals(options.transport())) {
        throw new IllegalStateException(
            "--transport "
                + options.transport()
                + " asked, but Lettuce uses "
                + transport
                + " (is the native library for this platform on the class path, and does it load?)");
      }
      log("Netty transport of every system: " + transport);
      List<BenchSystem> systems = openSystems(options, keys, servers, resources, fixture);
      systems.forEach(fixture::register);
      preload(keys, systems);
      if (options.workloads().contains(Workload.SYNC_HGETALL)
          || options.workloads().contains(Workload.SYNC_HSET)) {
        preloadHashes(keys, systems);
      }
      log("systems open and " + keys.keyCount() + " keys preloaded; preparing batches");
      Map<BenchSystem, Map<Workload, Object[]>> prepared = new LinkedHashMap<>();
      for (BenchSystem system : systems) {
        prepared.put(system, prepare(keys, system, options.workloads()));
      }
      warmUp(options, keys, systems, prepared);
      int total =
          options.rounds()
              * options.workloads().size()
              * options.inflights().size()
              * systems.size();
      for (int round = 1; round <= options.rounds(); round++) {
        List<BenchSystem> order = RoundOrder.of(systems, round);
        for (Workload workload : options.workloads()) {
          for (int inflight : options.inflights()) {
            StringBuilder line =
                new StringBuilder(
                    String.format(
                        Locale.ROOT, "round %d %-7s @%-2d", round, workload.label(), inflight));
            for (int position = 0; position < order.size(); position++) {
              BenchSystem system = order.get(position);
              ClosedLoop.Result result =
                  run(
                      keys,
                      system,
                      workload,
                      prepared.get(system).get(workload),
                      inflight,
                      options.warmupMillis(),
                      options.measureMillis());
              points.add(new Point(round, workload, inflight, system.name(), position, result));
              line.append(
                  String.format(
                      Locale.ROOT,
                      "  %s %.0f/s p99 %.0fus",
                      system.name(),
                      result.throughput(),
                      result.p99Micros()));
              if (result.errors() > 0) {
                line.append(" INVALID (").append(result.errors()).append(" errors: ");
                line.append(result.firstError()).append(')');
              }
            }
            log(line + "  [" + points.size() + "/" + total + "]");
          }
        }
      }
    }
    return points;
  }

  private static List<BenchSystem> openSystems(
      BenchOptions options,
      KeySpace keys,
      Servers servers,
      ClientResources resources,
      ProcessFixture fixture) {
    List<BenchSystem> systems = new ArrayList<>();
    // Jumpgate is always opened: the direct baseline takes its map from it.
    JumpgateSystem jumpgate =
        new JumpgateSystem(
            keys,
            servers.jumpgateCluster().etcd().endpointList(),
            servers.jumpgateCluster().cluster(),
            resources,
            options.coalescing());
    for (String name : options.systems()) {
      switch (name) {
        case "jumpgate" -> systems.add(jumpgate);
        case "direct" ->
            systems.add(new DirectSystem(keys, jumpgate.client().topology(), resources));
        case "lettuceCluster" -> {
          List<RedisURI> seeds = new ArrayList<>();
          for (RedisProcess node : servers.redisClusterNodes()) {
            seeds.add(LettuceOptions.uri("127.0.0.1", node.port()));
          }
          systems.add(LettuceSystem.cluster(keys, seeds, resources));
        }
        case "twemproxy" ->
            systems.add(
                LettuceSystem.throughTwemproxy(
                    keys, "127.0.0.1", servers.twemproxy().port(), resources));
        default -> throw new IllegalArgumentException("unknown system " + name);
      }
    }
    if (!systems.contains(jumpgate)) {
      fixture.register(jumpgate);
    }
    return systems;
  }

  /**
   * Writes every key through each system (so each placement - Jumpgate's map, the Redis Cluster
   * slots, twemproxy's ketama ring - holds them all), then checks that a GET of a few keys returns
   * the value through every system.
   */
  private static void preload(KeySpace keys, List<BenchSystem> systems) throws Exception {
    int batchSize = 100;
    for (BenchSystem system : systems) {
      long start = System.nanoTime();
      List<CompletableFuture<?>> window = new ArrayList<>();
      for (int first = 0; first < keys.keyCount(); first += batchSize) {
        int[] batch = new int[Math.min(batchSize, keys.keyCount() - first)];
        for (int index = 0; index < batch.length; index++) {
          batch[index] = first + index;
        }
        window.add(system.mset(system.prepare(batch, true)).toCompletableFuture());
        if (window.size() >= 32) {
          CompletableFuture.allOf(window.toArray(CompletableFuture[]::new))
              .get(30, TimeUnit.SECONDS);
          window.clear();
        }
      }
      CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
      for (int keyIndex : new int[] {0, 1, keys.keyCount() / 2, keys.keyCount() - 1}) {
        Object value = system.get(keyIndex).toCompletableFuture().get(10, TimeUnit.SECONDS);
        if (!(value instanceof byte[] bytes) || !Arrays.equals(bytes, keys.value())) {
          throw new IllegalStateException(
              system.name()
                  + ": GET of preloaded key "
                  + new String(keys.key(keyIndex), java.nio.charset.StandardCharsets.US_ASCII)
                  + " did not return the value written");
        }
      }
      log("preloaded through " + system.name() + " in " + millisSince(start) + " ms");
    }
  }

  /**
   * Writes every hash record (10 fields of 100 bytes) through each system's blocking API from 4
   * threads, then checks that an HGETALL through each system returns the 10 fields.
   */
  private static void preloadHashes(KeySpace keys, List<BenchSystem> systems) throws Exception {
    int threads = 4;
    for (BenchSystem system : systems) {
      long start = System.nanoTime();
      BenchSystem.Blocking blocking = system.blocking();
      List<CompletableFuture<Void>> writers = new ArrayList<>();
      for (int thread = 0; thread < threads; thread++) {
        int first = thread;
        writers.add(
            CompletableFuture.runAsync(
                () -> {
                  for (int index = first; index < keys.hashKeyCount(); index += threads) {
                    blocking.hset(index);
                  }
                },
                runnable -> new Thread(runnable, "bench-preload-hashes").start()));
      }
      CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
      for (int hashIndex : new int[] {0, keys.hashKeyCount() - 1}) {
        Object answer = blocking.hgetall(hashIndex);
        if (!(answer instanceof Map<?, ?> fields) || fields.size() != KeySpace.HASH_FIELDS) {
          throw new IllegalStateException(
              system.name()
                  + ": HGETALL of preloaded hash record "
                  + hashIndex
                  + " did not return its "
                  + KeySpace.HASH_FIELDS
                  + " fields: "
                  + answer);
        }
      }
      log(
          "preloaded "
              + keys.hashKeyCount()
              + " hash records through "
              + system.name()
              + " in "
              + millisSince(start)
              + " ms");
    }
  }

  private static Map<Workload, Object[]> prepare(
      KeySpace keys, BenchSystem system, List<Workload> workloads) {
    Map<Workload, Object[]> prepared = new LinkedHashMap<>();
    for (Workload workload : workloads) {
      int size =
          switch (workload) {
            case MGET10, MSET10 -> 10;
            case MGET100 -> 100;
            default -> 0;
          };
      if (size == 0) {
        continue;
      }
      int[][] batches = keys.batches(size);
      Object[] handles = new Object[batches.length];
      for (int index = 0; index < batches.length; index++) {
        handles[index] = system.prepare(batches[index], workload == Workload.MSET10);
      }
      prepared.put(workload, handles);
    }
    return prepared;
  }

  /**
   * Measures one point: the asynchronous closed loop with {@code inflight} slots, or for a blocking
   * workload {@code inflight} threads making blocking calls.
   */
  static ClosedLoop.Result run(
      KeySpace keys,
      BenchSystem system,
      Workload workload,
      Object[] prepared,
      int inflight,
      long warmupMillis,
      long measureMillis)
      throws InterruptedException {
    if (workload.blocking()) {
      return ClosedLoop.runBlocking(
          blockingRequest(keys, system.blocking(), workload),
          inflight,
          warmupMillis,
          measureMillis);
    }
    return ClosedLoop.run(
        request(keys, system, workload, prepared), inflight, warmupMillis, measureMillis);
  }

  /** The timed blocking call of a {@code sync-*} workload: index lookups and the call. */
  static ClosedLoop.BlockingRequest blockingRequest(
      KeySpace keys, BenchSystem.Blocking blocking, Workload workload) {
    return switch (workload) {
      case SYNC_GET -> sequence -> blocking.get(keys.uniform(sequence));
      case SYNC_SET -> sequence -> blocking.set(keys.uniform(sequence));
      case SYNC_HSET -> sequence -> blocking.hset(keys.uniformHash(sequence));
      case SYNC_HGETALL -> sequence -> blocking.hgetall(keys.uniformHash(sequence));
      default -> throw new IllegalArgumentException(workload.label() + " is not blocking");
    };
  }

  /** The timed request of a workload on a system: index lookups and the call, nothing else. */
  static ClosedLoop.Request request(
      KeySpace keys, BenchSystem system, Workload workload, Object[] prepared) {
    return switch (workload) {
      case GET -> sequence -> system.get(keys.uniform(sequence));
      case SET -> sequence -> system.set(keys.uniform(sequence));
      case MIX ->
          sequence ->
              keys.mixWrite(sequence)
                  ? system.set(keys.zipf(sequence))
                  : system.get(keys.zipf(sequence));
      case MGET10, MGET100 ->
          sequence -> system.mget(prepared[(int) (sequence & KeySpace.BATCH_MASK)]);
      case MSET10 -> sequence -> system.mset(prepared[(int) (sequence & KeySpace.BATCH_MASK)]);
      case SYNC_GET, SYNC_SET, SYNC_HSET, SYNC_HGETALL ->
          throw new IllegalArgumentException(workload.label() + " is blocking");
    };
  }

  /** Runs every workload once per system at 16 in flight so that the JIT has compiled each path. */
  private static void warmUp(
      BenchOptions options,
      KeySpace keys,
      List<BenchSystem> systems,
      Map<BenchSystem, Map<Workload, Object[]>> prepared)
      throws InterruptedException {
    long start = System.nanoTime();
    long millis = options.quick() ? 150 : 600;
    for (BenchSystem system : systems) {
      for (Workload workload : options.workloads()) {
        run(keys, system, workload, prepared.get(system).get(workload), 16, millis, 1);
      }
    }
    log("warm-up done in " + millisSince(start) + " ms");
  }

  /**
   * The system properties that make Lettuce use {@code transport}: it prefers epoll, then io_uring,
   * then NIO, among those whose native library is on the class path and loads.
   */
  static Map<String, String> transportProperties(String transport) {
    return Map.of(
        "io.lettuce.core.epoll", String.valueOf(transport.equals("epoll")),
        "io.lettuce.core.iouring", String.valueOf(transport.equals("io_uring")));
  }

  /**
   * Runs a timing main in its own JVM (same class path), if the class is there: {@code --results
   * DIR [--quick]}. Returns what happened, for summary.json: {@code done in N ms}, {@code failed
   * with exit code N}, {@code killed after N min}, or {@code not in this build}; only a run that is
   * "done" has its JSON file copied into summary.json.
   */
  private static String runTimingMain(String mainClass, BenchOptions options) throws Exception {
    try {
      Class.forName(mainClass, false, EndToEndBenchmark.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      log(mainClass + " is not in this build: skipped");
      return "not in this build";
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    transportProperties(options.transport())
        .forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.add("--results");
    command.add(options.results().toAbsolutePath().toString());
    if (options.quick()) {
      command.add("--quick");
    }
    if (mainClass.equals(TIMING_RUNS.get("propagation")) && PropagationRun.tmpfsAvailable()) {
      // etcd's WAL on tmpfs: the figure is the watch path's, not this machine's disk sync
      command.add(PropagationRun.TMPFS_FLAG);
    }
    log("running " + String.join(" ", command.subList(command.indexOf(mainClass), command.size())));
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).inheritIO().start();
    Thread killer = new Thread(process::destroyForcibly, "bench-timing-cleanup");
    Runtime.getRuntime().addShutdownHook(killer);
    Duration limit = Duration.ofMinutes(options.quick() ? 3 : 8);
    boolean exited = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    String outcome;
    if (!exited) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      outcome = "killed after " + limit.toMinutes() + " min";
    } else if (process.exitValue() != 0) {
      outcome = "failed with exit code " + process.exitValue();
    } else {
      outcome = "done in " + millisSince(start) + " ms";
    }
    log(mainClass + ": " + outcome);
    Runtime.getRuntime().removeShutdownHook(killer);
    return outcome;
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  static void log(String message) {
    System.out.println("[bench " + java.time.LocalTime.now().withNano(0) + "] " + message);
    System.out.flush();
  }
}
