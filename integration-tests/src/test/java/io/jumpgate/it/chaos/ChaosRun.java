package io.jumpgate.it.chaos;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One chaos run against real processes: a 3-member etcd, {@code groups} redis leaders each with a
 * replica, two Jumpgate clients with a 1 s command deadline, writers and readers (see {@link
 * ChaosWorkload}) while a {@link FaultController} injects faults; then a probe of every shard, and
 * the accounting ({@link ChaosReport}) with the assertions it checks.
 *
 * <p>Used by {@link ChaosIT}: the short mode inside {@code bin/test}, the long mode from {@code
 * bin/chaos}. Everything it starts belongs to the given {@link ProcessFixture} scope. Not
 * thread-safe: one run per instance.
 */
final class ChaosRun {
  private static final String CLUSTER = "chaos";
  private static final Duration PROBE_AFTER_SETTLE = Duration.ofSeconds(2);
  private static final Duration PROBE_LIMIT = Duration.ofSeconds(15);

  private final ProcessFixture fixture;
  private final ChaosSettings settings;
  private final PrintStream log;
  private long startNanos;
  private PauseMonitor pauses;

  ChaosRun(ProcessFixture fixture, ChaosSettings settings, PrintStream log) {
    this.fixture = fixture;
    this.settings = settings;
    this.log = log;
  }

  ChaosReport run() throws Exception {
    try (PauseMonitor monitor = new PauseMonitor()) {
      pauses = monitor;
      return runMonitored();
    }
  }

  private ChaosReport runMonitored() throws Exception {
    startNanos = System.nanoTime();
    Instant startedAt = Instant.now();
    log.println("[chaos] " + settings.describe());
    ChaosCluster cluster =
        ChaosCluster.start(fixture, CLUSTER, settings.shards(), settings.groups());
    EtcdTopologyOptions etcd =
        EtcdTopologyOptions.builder()
            .endpoints(cluster.etcd().endpointList())
            .cluster(CLUSTER)
            .build();
    JumpgateClient writerClient =
        fixture.register(
            JumpgateClient.create(
                JumpgateOptions.builder()
                    .etcd(etcd)
                    .commandTimeout(settings.commandTimeout())
                    .build()));
    EtcdTopologySource readerSource = EtcdTopologySource.create(etcd);
    JumpgateClient readerClient =
        fixture.register(
            JumpgateClient.create(
                JumpgateOptions.builder()
                    .topologySource(readerSource)
                    .commandTimeout(settings.commandTimeout())
                    .build()));
    ChaosStats stats =
        new ChaosStats(settings.commandTimeout().toNanos(), settings.deadlineMargin().toNanos());
    ChaosWorkload workload =
        new ChaosWorkload(settings, cluster, stats, writerClient, readerClient, readerSource);
    log.printf(
        Locale.ROOT,
        "[chaos %6.1fs] cluster up: etcd %s, %d groups, %d shards; load starting%n",
        elapsedSeconds(),
        cluster.etcd().endpointList(),
        settings.groups(),
        settings.shards());
    ScheduledExecutorService progress =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "chaos-progress");
              thread.setDaemon(true);
              return thread;
            });
    FaultController controller =
        new FaultController(
            settings,
            cluster,
            List.of(writerClient, readerClient),
            log,
            startNanos,
            shard -> workload.keyOf(shard, "probe"));
    Map<String, Object> probe;
    long faultsStarted;
    long faultsEnded;
    try {
      workload.start();
      Poll.until(
          Duration.ofSeconds(30),
          "the writers to get going",
          () -> workload.writerSuccesses() > 100);
      progress.scheduleAtFixedRate(
          () ->
              log.printf(
                  Locale.ROOT,
                  "[chaos %6.1fs] ops %d, failures %s, untyped %d, stale reads %d%n",
                  elapsedSeconds(),
                  stats.operations(),
                  stats.failuresByType(),
                  stats.untypedFailures(),
                  stats.staleReads()),
          10,
          10,
          TimeUnit.SECONDS);
      faultsStarted = System.nanoTime();
      controller.run(faultsStarted + settings.faultDuration().toNanos());
      faultsEnded = System.nanoTime();
      stats.settleFrom(faultsEnded + settings.settle().toNanos());
      log.printf(
          Locale.ROOT,
          "[chaos %6.1fs] faults stopped, all healed, final map at revision %d; probing%n",
          elapsedSeconds(),
          controller.lastRevision());
      probe = probe(workload, writerClient.connect().sync(), stats, faultsEnded);
    } finally {
      progress.shutdownNow();
      workload.stop();
    }
    long loadStopped = System.nanoTime();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(settings.shards());
    for (CounterLedger ledger : workload.ledgers()) {
      ChaosCluster.Group group = cluster.group(cluster.groupOf(router.shardOfUtf8(ledger.key())));
      Object value = ChaosCluster.call(group.leader(), "GET", ledger.key());
      ledger.settleFinal(
          value == null ? 0 : Long.parseLong((String) value),
          System.nanoTime(),
          cluster.crashesStarted(ledger.group()),
          cluster.lastCrashStartNanos(ledger.group()));
    }
    Map<String, Object> placement = placement(cluster, workload, router);
    ChaosReport report =
        summarise(
            startedAt,
            placement,
            stats,
            workload,
            controller,
            probe,
            readerSource,
            faultsEnded - faultsStarted,
            loadStopped);
    log.println("[chaos] " + report.summary());
    return report;
  }

  /**
   * SET and GET of a key on every shard, pass after pass, from the end of the faults until {@link
   * #PROBE_AFTER_SETTLE} after the settle point (and at least one whole pass started after it).
   */
  private Map<String, Object> probe(
      ChaosWorkload workload,
      JumpgateCommands<String, String> redis,
      ChaosStats stats,
      long faultsEnded) {
    long settleFrom = stats.settleFromNanos();
    long end = settleFrom + PROBE_AFTER_SETTLE.toNanos();
    long limit = faultsEnded + PROBE_LIMIT.toNanos();
    long operations = 0;
    long failures = 0;
    long mismatches = 0;
    long lastFailureEnd = faultsEnded;
    int cleanPassesAfterSettle = 0;
    long firstCleanPassEnd = -1;
    int pass = 0;
    while ((System.nanoTime() < end || cleanPassesAfterSettle == 0) && System.nanoTime() < limit) {
      long passStart = System.nanoTime();
      boolean clean = true;
      pass++;
      for (int shard = 0; shard < settings.shards(); shard++) {
        String key = workload.keyOf(shard, "probe");
        String value = "p" + pass;
        long start = System.nanoTime();
        try {
          redis.set(key, value);
          stats.succeeded("SET", start, System.nanoTime());
          operations++;
          start = System.nanoTime();
          String read = redis.get(key);
          stats.succeeded("GET", start, System.nanoTime());
          operations++;
          if (!value.equals(read)) {
            mismatches++;
            clean = false;
          }
        } catch (RuntimeException e) {
          operations++;
          failures++;
          clean = false;
          stats.failed("PROBE", e, start, System.nanoTime());
          lastFailureEnd = System.nanoTime();
        }
      }
      if (clean && firstCleanPassEnd < 0) {
        firstCleanPassEnd = System.nanoTime();
      }
      if (clean && passStart >= settleFrom) {
        cleanPassesAfterSettle++;
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("settleMs", settings.settle().toMillis());
    result.put("probeOps", operations);
    result.put("probeFailures", failures);
    result.put("probeReadMismatches", mismatches);
    result.put("lastProbeFailureMs", (lastFailureEnd - faultsEnded) / 1_000_000);
    result.put(
        "firstCleanPassMs",
        firstCleanPassEnd < 0 ? -1 : (firstCleanPassEnd - faultsEnded) / 1_000_000);
    result.put("cleanPassesAfterSettle", cleanPassesAfterSettle);
    return result;
  }

  /**
   * Reads every group's leader directly: each key must be on the leader of its shard's group (as
   * the final map, which the model mirrors, says) and on no other leader, and every key a write
   * acknowledged (and the probe's keys) must be there. The model is checked against etcd first.
   */
  private Map<String, Object> placement(
      ChaosCluster cluster, ChaosWorkload workload, Xxh64JumpRouter router) throws Exception {
    List<String> differences = new ArrayList<>();
    try (TopologyAdmin admin = TopologyAdmin.create(cluster.etcdOptions())) {
      Map<Integer, ShardAssignment> map = admin.read().assignments();
      for (int shard = 0; shard < settings.shards(); shard++) {
        ShardAssignment assignment = map.get(shard);
        String modelLeader = cluster.group(cluster.groupOf(shard)).leaderId();
        if (assignment == null
            || !assignment.leader().equals(modelLeader)
            || assignment.state() != ShardState.ACTIVE
            || assignment.migration() != null) {
          differences.add("shard " + shard + ": etcd " + assignment + ", model " + modelLeader);
        }
      }
    }
    Set<String> expected = new TreeSet<>(workload.acknowledgedKeys());
    for (int shard = 0; shard < settings.shards(); shard++) {
      expected.add(workload.keyOf(shard, "probe"));
    }
    Map<String, Integer> foundOn = new HashMap<>();
    long keysOnLeaders = 0;
    long misplaced = 0;
    long duplicated = 0;
    List<String> examples = new ArrayList<>();
    for (ChaosCluster.Group group : cluster.groups()) {
      Object reply = ChaosCluster.call(group.leader(), "KEYS", "*");
      for (Object item : (List<?>) reply) {
        String key = String.valueOf(item);
        keysOnLeaders++;
        int shard = router.shardOfUtf8(key);
        int owner = cluster.groupOf(shard);
        if (owner != group.index) {
          misplaced++;
          if (examples.size() < 5) {
            examples.add(key + " (shard " + shard + " of g" + owner + ") on g" + group.index);
          }
        }
        if (foundOn.put(key, group.index) != null) {
          duplicated++;
        }
      }
    }
    long missing = 0;
    for (String key : expected) {
      Integer group = foundOn.get(key);
      if (group == null || group != cluster.groupOf(router.shardOfUtf8(key))) {
        missing++;
        if (examples.size() < 10) {
          examples.add(key + " missing on its owner g" + cluster.groupOf(router.shardOfUtf8(key)));
        }
      }
    }
    Map<String, Object> placement = new LinkedHashMap<>();
    placement.put("keysOnLeaders", keysOnLeaders);
    placement.put("expectedKeys", expected.size());
    placement.put("misplaced", misplaced);
    placement.put("onTwoLeaders", duplicated);
    placement.put("missing", missing);
    placement.put("mapDifferences", differences);
    placement.put("examples", examples);
    return placement;
  }

  private ChaosReport summarise(
      Instant startedAt,
      Map<String, Object> placement,
      ChaosStats stats,
      ChaosWorkload workload,
      FaultController controller,
      Map<String, Object> probe,
      EtcdTopologySource readerSource,
      long faultNanos,
      long loadStopped) {
    long acknowledged = 0;
    long counterTotal = 0;
    long appliedUnknown = 0;
    long pendingUnknown = 0;
    long lostGraceful = 0;
    long expiredUnknown = 0;
    long lostCrashReplicated = 0;
    long lostCrashUnexplained = 0;
    long doubled = 0;
    for (CounterLedger ledger : workload.ledgers()) {
      acknowledged += ledger.acknowledgedCount();
      counterTotal += ledger.finalValue();
      appliedUnknown += ledger.appliedUnknown();
      pendingUnknown += ledger.pendingUnknown();
      lostGraceful += ledger.lostGraceful();
      expiredUnknown += ledger.expiredUnknown();
      lostCrashReplicated += ledger.lostCrashReplicated();
      lostCrashUnexplained += ledger.lostCrashUnexplained();
      doubled += ledger.doubled();
    }
    long timeoutMs = settings.commandTimeout().toMillis();
    long maxElapsedMs = stats.maxElapsedNanos() / 1_000_000;
    Map<String, Object> overruns = new LinkedHashMap<>();
    overruns.put("max", Math.max(0, maxElapsedMs - timeoutMs));
    overruns.put("maxCallMs", maxElapsedMs);
    overruns.put("deadlineMs", timeoutMs);
    overruns.put("marginMs", settings.deadlineMargin().toMillis());
    overruns.put("callsOverMargin", stats.overMargin());
    long lateNotExplained = stats.overMarginNotExplainedByPauses(pauses);
    overruns.put("callsOverMarginNotExplainedByJvmPauses", lateNotExplained);
    overruns.put("jvmPauseMaxMs", pauses.longestNanos() / 1_000_000);
    overruns.put("jvmPausesOver100Ms", pauses.countLongerThan(100_000_000));
    overruns.put("callsPastDeadlineByMs", stats.overrunHistogram());
    overruns.put("slowestCall", stats.slowestCall());
    Map<String, Object> reads = new LinkedHashMap<>();
    reads.put("compared", stats.readsCompared());
    reads.put("stale", stats.staleReads());
    reads.put("staleAfterUnknownWrite", stats.staleAfterUnknownWrite());
    Map<String, Object> recovery = new LinkedHashMap<>(probe);
    recovery.put("failuresAfterSettle", stats.failuresAfterSettle());
    EtcdTopologySource.Statistics source = readerSource.statistics();
    Map<String, Object> topology = new LinkedHashMap<>();
    topology.put("finalRevision", controller.lastRevision());
    topology.put("longestClientApplyMs", controller.longestClientApplyNanos() / 1_000_000);
    topology.put("readerSourceLists", source.lists());
    topology.put("readerSourceWatches", source.watches());
    topology.put("readerSourceCompactions", source.compactions());
    topology.put("readerSourceRevisionsApplied", source.revisionsApplied());
    Map<String, Integer> faults = controller.counts();

    ChaosReport.Builder report =
        new ChaosReport.Builder()
            .put("seed", settings.seed())
            .put("mode", settings.mode())
            .put("startedAt", startedAt.toString())
            .put("durationMs", (System.nanoTime() - startNanos) / 1_000_000)
            .put("faultPhaseMs", faultNanos / 1_000_000)
            .put("ops", stats.operations())
            .put("opsByCommand", stats.operationsByCommand())
            .put("failures", stats.failuresByType())
            .put("untypedFailures", stats.untypedFailures())
            .put("unknownOutcomes", stats.unknownOutcomes())
            .put("ackedIncrements", acknowledged)
            .put("counterTotal", counterTotal)
            .put("appliedUnknownIncrements", appliedUnknown)
            .put("pendingUnknownIncrements", pendingUnknown)
            .put("lostGraceful", lostGraceful)
            .put("expiredUnknownIncrements", expiredUnknown)
            .put("lostCrash", lostCrashReplicated + lostCrashUnexplained)
            .put("lostCrashReplicated", lostCrashReplicated)
            .put("lostCrashUnexplained", lostCrashUnexplained)
            .put("doubled", doubled)
            .put("reads", reads)
            .put("deadlineOverrunsMs", overruns)
            .put("longestStallMs", workload.longestStallNanos(loadStopped) / 1_000_000)
            .put("faults", faults)
            .put("migrations", controller.migrationFigures())
            .put("placement", placement)
            .put("recovery", recovery)
            .put("topology", topology)
            .put("failureExamples", stats.firstFailureByType())
            .put("samples", stats.samples());
    report
        .check(doubled == 0, "doubled increments: " + doubled)
        .check(lostGraceful == 0, "increments lost without a crash: " + lostGraceful)
        .check(
            lostCrashUnexplained == 0,
            "increments lost to a crash that were acknowledged more than "
                + FaultController.REPLICATION_LAG_ALLOWANCE.toMillis()
                + " ms before it started (asynchronous replication does not explain them): "
                + lostCrashUnexplained)
        .check(
            stats.untypedFailures() == 0,
            "failures that are not a JumpgateException: " + stats.untypedFailures())
        .check(
            lateNotExplained == 0,
            lateNotExplained
                + " calls ended later than the deadline + "
                + settings.deadlineMargin().toMillis()
                + " ms (after taking off the JVM's own pauses)")
        .check(stats.staleReads() == 0, "reads older than an earlier read of the same epoch")
        .check(
            stats.failuresByType().getOrDefault("ShardUnavailableException", 0L) == 0,
            "ShardUnavailableException although every shard always has a valid assignment in"
                + " etcd: "
                + stats.failuresByType().get("ShardUnavailableException"))
        .check(
            stats.failuresAfterSettle() == 0,
            stats.failuresAfterSettle()
                + " calls failed that started "
                + settings.settle().toMillis()
                + " ms or more after the faults stopped")
        .check(
            ((Number) probe.get("cleanPassesAfterSettle")).intValue() > 0,
            "no probe pass over every shard succeeded after the settle point")
        .check(
            ((Number) probe.get("probeReadMismatches")).longValue() == 0,
            "the probe read back a value it did not write")
        .check(
            ((Number) placement.get("misplaced")).longValue() == 0
                && ((Number) placement.get("onTwoLeaders")).longValue() == 0,
            "keys on a leader that does not own their shard: " + placement.get("examples"))
        .check(
            ((Number) placement.get("missing")).longValue() == 0,
            "keys missing on their owner: " + placement.get("examples"))
        .check(
            ((List<?>) placement.get("mapDifferences")).isEmpty(),
            "the final map differs from the model: " + placement.get("mapDifferences"))
        .check(
            controller.writesAfterCutover() == 0,
            "writes reached a source after their shard's cutover: "
                + controller.writesAfterCutover())
        .check(
            controller.frozenLongestServedAfterKillMs() <= controller.frozenServeBoundMs(),
            "a shard frozen by a killed mover was served again only "
                + controller.frozenLongestServedAfterKillMs()
                + " ms after the kill, more than the lock TTL + the freeze bound ("
                + controller.frozenServeBoundMs()
                + " ms)")
        .check(acknowledged > 0, "no increment was acknowledged")
        .check(stats.readsCompared() > 0, "no read was compared within an epoch");
    for (Map.Entry<String, Integer> fault : faults.entrySet()) {
      report.check(fault.getValue() > 0, "fault " + fault.getKey() + " never happened");
    }
    return report.build();
  }

  private double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
