package io.jumpgate.cli.demo;

import io.jumpgate.cli.ExitCodes;
import io.jumpgate.cli.demo.LocalServers.Server;
import io.jumpgate.cli.demo.LocalServers.StopResult;
import io.jumpgate.cli.demo.Playground.MapFailover;
import io.jumpgate.cli.demo.Playground.Move;
import io.jumpgate.cli.demo.Workload.Snapshot;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 *   <li>Starts etcd and six redis-servers ({@code leader-0..2}, each with a replica {@code
 *       replica-i}) on free ports of 127.0.0.1, in a temp dir ({@link LocalServers}), and writes
 *       the shard map of cluster {@code demo} ({@link Playground}).
 *   <li>Runs a mixed workload through a {@link JumpgateClient} for {@code --duration} ({@link
 *       Workload}), with a progress line once a second ({@link ProgressLine}).
 *   <li>At a third of the run, moves the shard of the hottest key to another leader (the map only:
 *       its data stays where it was); at two thirds, fails {@code leader-1} over to {@code
 *       replica-1} (Redis {@code FAILOVER}, then the map), while the workload goes on.
 *   <li>Prints where the shards and keys are and a summary of the driver's metrics ({@link
 *       MetricsSummary}), then stops every process and deletes the temp dir: also on Ctrl-C (a
 *       shutdown hook; the exit code is then 130). With {@code --keep}, the cluster stays up and
 *       the command prints how to reach and stop it.
 * </ol>
 *
 * <p>Exit codes: 0 when the workload ran (answers in every phase, at most {@value
 * #MAX_ERROR_PERCENT}% of commands failed) and the cluster shut down; 1 otherwise, with the reason;
 * 2 for a bad option. etcd and redis-server come from {@code JUMPGATE_ETCD_BIN} and {@code
 * JUMPGATE_REDIS_BIN}, else from {@code PATH}; when one is missing the command fails at once with
 * the install command ({@code bin/jumpgate demo} installs them first when run as root).
 *
 * <p>Threading: picocli fills one instance per invocation; the main thread drives the demo, a
 * ticker thread prints the progress line, the driver's threads count the answers.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a local cluster (etcd, 3 Redis leaders each with a replica) and a live workload"
          + " through the driver; moves a shard and fails a leader over mid-run.",
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
   * @param environment where {@code JUMPGATE_ETCD_BIN}, {@code JUMPGATE_REDIS_BIN} and {@code PATH}
   *     are read
   */
  DemoCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Option(
      names = DURATION_OPTION,
      paramLabel = "DURATION",
      defaultValue = "20s",
      description = "How long the workload runs, e.g. 5s, 20s, 1m (3s to 24h; default: 20s).")
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
  private record Outcome(Snapshot total, String failure) {}

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    LocalServers servers = LocalServers.create(environment);
    Thread onInterrupt = new Thread(() -> stopOnInterrupt(servers, err), "jumpgate-demo-cleanup");
    Runtime.getRuntime().addShutdownHook(onInterrupt);
    Outcome outcome;
    try {
      outcome = run(servers, out);
    } catch (Exception e) {
      removeShutdownHook(onInterrupt);
      out.flush();
      if (e instanceof DemoException demo && !demo.details().isEmpty()) {
        err.println(demo.details());
      }
      shutDown(servers, out);
      throw e;
    }
    removeShutdownHook(onInterrupt);
    if (keep) {
      printHowToReach(servers, out);
    } else {
      shutDown(servers, out);
    }
    if (outcome.failure() != null) {
      throw new DemoException(outcome.failure());
    }
    return ExitCodes.OK;
  }

  private Outcome run(LocalServers servers, PrintWriter out) throws InterruptedException {
    out.println("jumpgate demo: a local cluster in " + servers.dir() + " (data and logs)");
    out.flush();
    long started = System.nanoTime();
    try (Playground playground = Playground.start(servers, line -> say(out, line))) {
      say(
          out,
          String.format(
              Locale.ROOT,
              "started etcd and %d redis-servers in %.1f s; every replica is in sync",
              playground.nodes().size(),
              seconds(System.nanoTime() - started)));
      long revision = playground.writeInitialMap();
      say(
          out,
          String.format(
              Locale.ROOT,
              "topology: cluster '%s', %d shards, written in one etcd transaction at revision %d:",
              Playground.CLUSTER,
              Playground.SHARDS,
              revision));
      say(out, "  shard s is led by leader-(s % 3), with replica-(s % 3) as its replica");
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      registry.config().meterFilter(MetricsSummary.percentiles(duration.plusMinutes(10)));
      JumpgateOptions options =
          JumpgateOptions.builder()
              .etcd(
                  EtcdTopologyOptions.builder()
                      .endpoints(playground.etcdEndpoint())
                      .cluster(Playground.CLUSTER)
                      .build())
              .meterRegistry(registry)
              .clientId("jumpgate-demo")
              .warmUp(true)
              .build();
      try (JumpgateClient client = JumpgateClient.create(options)) {
        say(out, "driver: connected, routing with revision " + client.topology().revision());
        say(
            out,
            String.format(
                Locale.ROOT,
                "workload: %s after 1 s of warm-up, %d commands in flight; %d%% GET, %d%% SET"
                    + " (%d B), %d%% INCR, %d%% MGET of %d keys; %,d keys, skewed",
                describe(duration),
                MAX_IN_FLIGHT,
                Workload.GET_PERCENT,
                Workload.SET_PERCENT,
                Workload.VALUE_BYTES,
                Workload.INCR_PERCENT,
                100 - Workload.GET_PERCENT - Workload.SET_PERCENT - Workload.INCR_PERCENT,
                Workload.MGET_KEYS,
                Workload.KEYS));
        out.println();
        Outcome outcome = runWorkload(playground, client, out);
        out.println();
        printDistribution(out, playground, client.topology(), registry);
        out.println();
        MetricsSummary.print(out, registry);
        out.println();
        return outcome;
      }
    }
  }

  private Outcome runWorkload(Playground playground, JumpgateClient client, PrintWriter out)
      throws InterruptedException {
    // A second of load first, not counted: the JVM compiles the hot paths.
    Workload warmUp = new Workload(client.connect().async(), MAX_IN_FLIGHT);
    warmUp.start();
    sleepUntil(System.nanoTime() + WARM_UP.toNanos());
    warmUp.stop(DRAIN_TIMEOUT);
    Workload workload = new Workload(client.connect().async(), MAX_IN_FLIGHT);
    ProgressLine progress = new ProgressLine(out, System.console() != null);
    long start = System.nanoTime();
    workload.start();
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "jumpgate-demo-progress");
              thread.setDaemon(true);
              return thread;
            });
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
            progress.update(
                ProgressLine.format(
                    seconds(now - start),
                    Math.round(interval.commands() / Math.max(seconds, 1e-3)),
                    LatencyHistogram.percentileMicros(interval.latencies(), 0.50),
                    LatencyHistogram.percentileMicros(interval.latencies(), 0.99),
                    current.errors(),
                    client.topology().revision()));
          } catch (RuntimeException e) {
            progress.event("progress: " + e);
          }
        },
        1,
        1,
        TimeUnit.SECONDS);

    long runNanos = duration.toNanos();
    Snapshot afterFailover;
    long ranNanos;
    boolean drained;
    try {
      sleepUntil(start + runNanos / 3);
      moveHottestShard(playground, client, progress, start);
      sleepUntil(start + runNanos * 2 / 3);
      afterFailover = failOver(playground, client, workload, progress, start);
      // the load goes on for a while after the failover, however long the failover took
      sleepUntil(Math.max(start + runNanos, System.nanoTime() + CARRY_ON.toNanos()));
    } finally {
      ticker.shutdownNow();
      ticker.awaitTermination(2, TimeUnit.SECONDS);
      ranNanos = System.nanoTime() - start;
      drained = workload.stop(DRAIN_TIMEOUT);
      progress.finish();
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
    return new Outcome(total, judge(total, total.since(afterFailover), drained));
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

  /** Gives the shard of the hottest key to another leader: the map changes, the data does not. */
  private static void moveHottestShard(
      Playground playground, JumpgateClient client, ProgressLine progress, long start) {
    int shard = Xxh64JumpRouter.forShards(Playground.SHARDS).shardOfUtf8(Workload.HOTTEST_KEY);
    ShardRoute route = client.topology().route(shard);
    String from = route.isAvailable() ? route.leader().id() : Playground.leaderId(shard % 3);
    // Never to leader-1, which fails over later: the moved shard stays where it went.
    String to =
        from.equals(Playground.leaderId(2)) ? Playground.leaderId(0) : Playground.leaderId(2);
    Move move = playground.moveShard(shard, to);
    long written = System.nanoTime();
    long applied = awaitRevision(client, move.revision());
    progress.event(
        String.format(
            Locale.ROOT,
            "t=%5.1fs move: shard %d (it holds %s, the hottest key) from %s to %s, epoch %d,"
                + " revision %d",
            seconds(applied - start),
            move.shard(),
            Workload.HOTTEST_KEY,
            move.from(),
            move.to(),
            move.epoch(),
            move.revision()));
    progress.event(
        String.format(
            Locale.ROOT,
            "         the driver routes it to %s %s after the write; its keys stay on %s"
                + " (moving data is a separate step)",
            move.to(),
            ProgressLine.latency((applied - written) / 1000),
            move.from()));
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
    MapFailover change = playground.failOverMap(FAILED_LEADER, to);
    long written = System.nanoTime();
    long applied = awaitRevision(client, change.revision());
    Snapshot routed = workload.snapshot();
    LocalServers.pause(SETTLE); // let the commands that were waiting or retrying end
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
      LocalServers.pause(Duration.ofMillis(2));
    }
    return System.nanoTime();
  }

  /** Shards led, Redis role, keys (DBSIZE) and commands served, per node. */
  private static void printDistribution(
      PrintWriter out,
      Playground playground,
      TopologySnapshot topology,
      SimpleMeterRegistry registry) {
    Map<String, Integer> led = new TreeMap<>();
    for (ShardRoute route : topology.routes()) {
      if (route.isAvailable()) {
        led.merge(route.leader().id(), 1, Integer::sum);
      }
    }
    Map<String, Long> served = MetricsSummary.commandsByNode(registry);
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
    for (Map.Entry<String, Server> node : playground.nodes().entrySet()) {
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
    out.println("  COMMANDS: the commands whose last try went to the node");
    out.flush();
  }

  /** --keep: the flags to reach the cluster, the pids, how to stop it. */
  private static void printHowToReach(LocalServers servers, PrintWriter out) {
    List<Server> running = servers.servers();
    String etcd =
        running.stream()
            .filter(server -> server.name().equals("etcd"))
            .map(server -> "http://" + server.address())
            .findFirst()
            .orElse("?");
    String flags = "--etcd " + etcd + " --cluster " + Playground.CLUSTER;
    out.println("the cluster keeps running (--keep); reach it with " + flags + ", e.g.:");
    out.println("  bin/jumpgate topology show " + flags);
    out.println("  bin/jumpgate route " + flags + " " + Workload.HOTTEST_KEY);
    out.println(
        "pids: "
            + running.stream()
                .map(server -> server.name() + " " + server.pid())
                .collect(Collectors.joining(", ")));
    out.println("data and logs: " + servers.dir());
    out.println(
        "stop it with: kill "
            + running.stream()
                .map(server -> Long.toString(server.pid()))
                .collect(Collectors.joining(" "))
            + " && rm -rf "
            + servers.dir());
    out.flush();
  }

  /** Stops every process and deletes the temp dir. */
  private static void shutDown(LocalServers servers, PrintWriter out) {
    StopResult stopped = servers.stopAll();
    servers.deleteDir();
    List<String> notes = new ArrayList<>();
    if (!stopped.killed().isEmpty()) {
      notes.add("SIGKILL for " + String.join(", ", stopped.killed()));
    }
    out.println(
        "cluster stopped: "
            + stopped.stopped()
            + " processes ended"
            + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")")
            + ", "
            + servers.dir()
            + " removed");
    out.flush();
    if (!stopped.survivors().isEmpty()) {
      throw new DemoException(
          "could not stop " + String.join(", ", stopped.survivors()) + "; kill them by hand");
    }
  }

  /** The shutdown hook: Ctrl-C (or a kill) while the demo runs. */
  private static void stopOnInterrupt(LocalServers servers, PrintWriter err) {
    StopResult stopped = servers.stopAll();
    String removed;
    try {
      servers.deleteDir();
      removed = servers.dir() + " removed";
    } catch (UncheckedIOException e) {
      removed = e.getMessage();
    }
    err.println();
    err.println(
        "jumpgate demo: interrupted; "
            + stopped.stopped()
            + " processes stopped"
            + (stopped.survivors().isEmpty()
                ? ""
                : ", still running: " + String.join(", ", stopped.survivors()))
            + ", "
            + removed);
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
