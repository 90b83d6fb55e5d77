package io.jumpgate.it.chaos;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.chaos.ChaosCluster.Group;
import io.jumpgate.it.fixture.EtcdMember;
import io.jumpgate.it.fixture.FixtureException;
import io.jumpgate.it.fixture.MoverProcess;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Injects one fault at a time, at random from a seeded {@link Random}, with a bounded pause between
 * two faults, and heals each before the next: after a fault every group again has a leader and an
 * in-sync replica, every etcd member runs, and no migration is left (no record, no lock, every
 * shard active). The first faults visit every {@link Fault} type once, in a seeded order, so even a
 * short run sees each.
 *
 * <p>Shards move between groups only with their data ({@link Mover}: {@code shardMigration}, and
 * {@code moverKill}, whose mover runs in its own JVM and is killed with SIGKILL, then resumed), and
 * only the shards that are not pinned ({@link ChaosSettings#isPinned}). Their counters go with
 * them, so the accounting stays exact. A migration never overlaps another fault: a failover of its
 * source or target while it runs would break its change capture (set on the old leader) and its
 * cutover (the map's leader no longer its {@code from}), and the failover's map write would
 * overwrite the shard's {@code migrating}/{@code frozen} entry.
 *
 * <p>Runs on the thread that calls {@link #run}; it alone changes the cluster model.
 */
final class FaultController {

  /** The kinds of fault, by their name in the report. */
  enum Fault {
    GRACEFUL_SWITCH("gracefulSwitch", 3),
    SHARD_MIGRATION("shardMigration", 3),
    CRASH_FAILOVER("crashFailover", 2),
    NODE_PAUSE("nodePause", 2),
    ETCD_MEMBER_RESTART("etcdMemberRestart", 1),
    ETCD_COMPACTION("etcdCompaction", 1),
    MOVER_KILL("moverKill", 1);

    final String reportName;
    final int weight;

    Fault(String reportName, int weight) {
      this.reportName = reportName;
      this.weight = weight;
    }
  }

  private static final Duration PAUSE_LENGTH = Duration.ofSeconds(2);
  private static final Duration LAG_BEFORE_CRASH = Duration.ofMillis(300);

  /**
   * The longest a write may wait between its failure on the client and its run on a node: a node
   * paused with the write in its socket runs it when it continues, {@link #PAUSE_LENGTH} at most
   * after it was sent; one second more for the machine.
   */
  static final Duration LONGEST_RUN_DELAY = PAUSE_LENGTH.plusSeconds(1);

  /**
   * How long before a crash an acknowledged write may still not have reached the replica that takes
   * over (asynchronous replication on loopback is far faster; a replica resyncing after a pause is
   * waited for before the next fault).
   */
  static final Duration REPLICATION_LAG_ALLOWANCE = Duration.ofSeconds(1);

  private static final Duration CLIENT_APPLY_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration MOVER_CLEANUP_GRACE = Duration.ofMillis(1500);
  private static final Duration KILLED_MOVER_LOCK_TTL = Duration.ofSeconds(2);
  private static final Duration MOVER_PHASE_TIMEOUT = Duration.ofSeconds(60);
  private static final List<String> KILL_POINTS = List.of("COPY", "FROZEN", "CLEANUP");
  private static final String STALE_CLIENT = "clients/chaos-stale";
  private static final int SERVE_TRIES = 20;
  private static final Duration LONG_FAULT_LEAD = Duration.ofSeconds(12);

  private final ChaosSettings settings;
  private final ChaosCluster cluster;
  private final List<JumpgateClient> clients;
  private final PrintStream log;
  private final long startNanos;
  private final Random random;
  private final Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
  private long lastRevision;
  private long longestClientApplyNanos;
  private final IntFunction<String> probeKeyOf;
  private final Map<String, Integer> killsByPhase = new HashMap<>();
  private int migrations;
  private int moverKills;
  private long shardsCutOver;
  private long shardsNotMoved;
  private long writesAfterCutover;
  private long longestMigrationMs;
  private long frozenLongestServedAfterKillMs;

  FaultController(
      ChaosSettings settings,
      ChaosCluster cluster,
      List<JumpgateClient> clients,
      PrintStream log,
      long startNanos,
      IntFunction<String> probeKeyOf) {
    this.settings = settings;
    this.cluster = cluster;
    this.clients = clients;
    this.log = log;
    this.startNanos = startNanos;
    this.random = new Random(settings.seed());
    this.probeKeyOf = probeKeyOf;
  }

  /** Injects faults until {@code deadlineNanos}, then returns with the last one healed. */
  void run(long deadlineNanos) throws Exception {
    List<Fault> firstRound = new ArrayList<>(List.of(Fault.values()));
    Collections.shuffle(firstRound, random);
    while (System.nanoTime() < deadlineNanos) {
      boolean firstVisit = !firstRound.isEmpty();
      Fault fault = firstVisit ? firstRound.remove(0) : pick();
      if (fault == Fault.MOVER_KILL
          && !firstVisit
          && deadlineNanos - System.nanoTime() < LONG_FAULT_LEAD.toNanos()) {
        // a mover JVM, its kill, the lock's expiry and the resume take about 10 s: near the end
        // (the first visit of each type aside) a data-moving migration goes instead, so the fault
        // phase ends about on time
        fault = Fault.SHARD_MIGRATION;
      }
      inject(fault);
      counts.merge(fault, 1, Integer::sum);
      long pause =
          settings.pauseBetweenFaultsMin().toNanos()
              + (long)
                  (random.nextDouble()
                      * (settings.pauseBetweenFaultsMax().toNanos()
                          - settings.pauseBetweenFaultsMin().toNanos()));
      pause = Math.min(pause, deadlineNanos - System.nanoTime());
      if (pause > 0) {
        Thread.sleep(pause / 1_000_000); // the load runs undisturbed meanwhile
      }
    }
  }

  Map<String, Integer> counts() {
    Map<String, Integer> byName = new java.util.LinkedHashMap<>();
    for (Fault fault : Fault.values()) {
      byName.put(fault.reportName, counts.getOrDefault(fault, 0));
    }
    return byName;
  }

  /** The revision of the last map write (the final map once {@link #run} returned). */
  long lastRevision() {
    return lastRevision;
  }

  /** The longest time a client took to apply one of the controller's map writes it waited for. */
  long longestClientApplyNanos() {
    return longestClientApplyNanos;
  }

  private Fault pick() {
    int total = 0;
    for (Fault fault : Fault.values()) {
      total += fault.weight;
    }
    int draw = random.nextInt(total);
    for (Fault fault : Fault.values()) {
      draw -= fault.weight;
      if (draw < 0) {
        return fault;
      }
    }
    throw new AssertionError("unreachable");
  }

  private void inject(Fault fault) throws Exception {
    switch (fault) {
      case GRACEFUL_SWITCH -> gracefulSwitch(cluster.group(random.nextInt(settings.groups())));
      case SHARD_MIGRATION -> migrateShards();
      case CRASH_FAILOVER -> crashFailover(cluster.group(random.nextInt(settings.groups())));
      case NODE_PAUSE -> pauseNode();
      case ETCD_MEMBER_RESTART -> restartEtcdMember();
      case ETCD_COMPACTION -> compact();
      case MOVER_KILL -> killMover();
    }
  }

  /** Redis FAILOVER to the replica, then the map. */
  private void gracefulSwitch(Group group) throws Exception {
    cluster.awaitReplicaInSync(group);
    RedisProcess oldLeader = group.leader();
    RedisProcess newLeader = group.replica();
    String from = group.leaderId();
    String to = group.replicaId();
    ChaosCluster.call(oldLeader, "FAILOVER");
    ChaosCluster.awaitRole(newLeader, "master", to + " to become master after FAILOVER");
    ChaosCluster.awaitRole(oldLeader, "slave", from + " to become a replica after FAILOVER");
    group.leader = 1 - group.leader;
    long revision = cluster.leaderChanged(group);
    lastRevision = revision;
    cluster.awaitReplicaInSync(group);
    note(
        "gracefulSwitch g%d: FAILOVER %s -> %s, map at revision %d",
        group.index, from, to, revision);
  }

  /**
   * A map write that moves no data: 1 to 3 movable shards get a new epoch with the same leader (a
   * revision every client must apply, for the etcd faults).
   */
  private long touchShards(String context) throws Exception {
    List<Integer> movable = movableShards();
    Set<Integer> touched = new LinkedHashSet<>(movable.subList(0, 1 + random.nextInt(3)));
    for (int shard : touched) {
      cluster.reassign(shard, cluster.groupOf(shard));
    }
    long revision = cluster.writeShards(touched);
    lastRevision = revision;
    note("mapWrite%s: new epoch for shards %s, map at revision %d", context, touched, revision);
    return revision;
  }

  /** The shards that may move between groups, in a seeded random order. */
  private List<Integer> movableShards() {
    List<Integer> movable = new ArrayList<>();
    for (int shard = 0; shard < settings.shards(); shard++) {
      if (!settings.isPinned(shard)) {
        movable.add(shard);
      }
    }
    Collections.shuffle(movable, random);
    return movable;
  }

  /**
   * A plan that moves 1 to 3 movable shards from their group's leader to the leader of another
   * group (chosen at random: over a run, shards go back and forth).
   */
  private MovePlan planMoves(String migrationId) {
    List<Integer> movable = movableShards();
    MovePlan.Builder plan = MovePlan.builder(migrationId);
    for (int shard : movable.subList(0, 1 + random.nextInt(3))) {
      int from = cluster.groupOf(shard);
      int to = (from + 1 + random.nextInt(settings.groups() - 1)) % settings.groups();
      plan.move(shard, cluster.group(from).leaderId(), cluster.group(to).leaderId());
    }
    return plan.build();
  }

  private static String describe(MovePlan plan) {
    StringBuilder text = new StringBuilder();
    plan.moves()
        .forEach(
            (shard, move) ->
                text.append(
                    String.format(Locale.ROOT, " %d:%s->%s", shard, move.from(), move.to())));
    return text.toString().trim();
  }

  /** The in-JVM mover's options: cleanup after a grace above the clients' 1 s deadline. */
  private static MoverOptions moverOptions() {
    return MoverOptions.builder().groupSize(2).cleanupGrace(MOVER_CLEANUP_GRACE).build();
  }

  /** Moves 1 to 3 shards, with their data, to other groups by a {@link Mover} in this JVM. */
  private void migrateShards() throws Exception {
    MovePlan plan = planMoves("chaos-move-" + (++migrations));
    long start = System.nanoTime();
    MoveResult result;
    try (Mover mover = Mover.create(cluster.etcdOptions(), moverOptions())) {
      result = mover.move(plan);
    }
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    longestMigrationMs = Math.max(longestMigrationMs, elapsedMs);
    account(result);
    long revision = adoptMoves(plan);
    note(
        "shardMigration %s: %s cut over, %s not moved, in %d ms; map at revision %d",
        describe(plan),
        result.shardsCutOver(),
        result.shardsNotMoved().keySet(),
        elapsedMs,
        revision);
  }

  /**
   * A mover in its own JVM moves 1 to 3 shards and is killed with SIGKILL in a phase chosen at
   * random (copy, while a group is frozen, cleanup); once its lock expired a mover in this JVM
   * finishes the migration from its record. When it is killed with a shard frozen, a SET on that
   * shard must succeed within the lock's TTL + the drivers' freeze bound.
   */
  private void killMover() throws Exception {
    String migrationId = "chaos-kill-" + (++moverKills);
    MovePlan plan = planMoves(migrationId);
    String point = KILL_POINTS.get(random.nextInt(KILL_POINTS.size()));
    MoverProcess.Options options =
        MoverProcess.options(cluster.etcd().endpoints(), cluster.clusterName(), migrationId)
            .lockTtl(KILLED_MOVER_LOCK_TTL)
            .groupSize(1)
            .acknowledgementTimeout(Duration.ofMillis(1500))
            .cleanupGrace(Duration.ofSeconds(2));
    plan.moves().forEach((shard, move) -> options.move(shard, move.from(), move.to()));
    boolean stale = point.equals("FROZEN");
    if (stale) {
      // a registration that never acknowledges keeps each group frozen for the whole bound
      cluster.putKey(STALE_CLIENT, "{\"host\":\"far\",\"pid\":7,\"revision\":1,\"drained\":1}");
    }
    int frozenShard = -1;
    String phaseAtKill;
    long killedAt;
    try {
      MoverProcess mover = MoverProcess.start(cluster.fixture(), options);
      switch (point) {
        case "COPY" -> mover.awaitPhase("COPY", MOVER_PHASE_TIMEOUT);
        case "CLEANUP" -> mover.awaitPhase("CLEANUP", MOVER_PHASE_TIMEOUT);
        default -> {
          mover.awaitPhase("CUTOVER", MOVER_PHASE_TIMEOUT);
          frozenShard = awaitFrozen(plan, mover);
        }
      }
      phaseAtKill = mover.lastPhase();
      mover.kill9();
      killedAt = System.nanoTime();
      if (mover.exitStatus() != 137) {
        throw new IllegalStateException(
            "the mover's exit status after SIGKILL is " + mover.exitStatus() + ", not 137");
      }
    } finally {
      if (stale) {
        cluster.deleteKey(STALE_CLIENT);
      }
    }
    killsByPhase.merge(point.equals("FROZEN") ? "FROZEN" : phaseAtKill, 1, Integer::sum);
    long servedAfterMs = -1;
    if (frozenShard >= 0) {
      servedAfterMs = awaitServed(frozenShard, killedAt);
      frozenLongestServedAfterKillMs = Math.max(frozenLongestServedAfterKillMs, servedAfterMs);
    }
    try (MigrationStore store = MigrationStore.create(cluster.etcdOptions())) {
      Poll.until(
          KILLED_MOVER_LOCK_TTL.plusSeconds(15),
          "the killed mover's lock to expire",
          () -> store.readLock().isEmpty());
    }
    long lockGoneMs = (System.nanoTime() - killedAt) / 1_000_000;
    MoveResult result;
    try (Mover mover = Mover.create(cluster.etcdOptions(), moverOptions())) {
      result = mover.move(plan);
    }
    account(result);
    long revision = adoptMoves(plan);
    note(
        "moverKill %s: %s, SIGKILL in %s%s; lock gone %d ms after the kill; resumed: %s cut"
            + " over, %s not moved; map at revision %d",
        migrationId,
        describe(plan),
        point.equals("FROZEN") ? "CUTOVER with shard " + frozenShard + " frozen" : phaseAtKill,
        servedAfterMs < 0 ? "" : " (served again " + servedAfterMs + " ms after the kill)",
        lockGoneMs,
        result.shardsCutOver(),
        result.shardsNotMoved().keySet(),
        revision);
  }

  /** Waits until etcd shows a shard of the plan frozen; returns it. */
  private int awaitFrozen(MovePlan plan, MoverProcess mover) {
    int[] frozen = {-1};
    try (TopologyAdmin admin = TopologyAdmin.create(cluster.etcdOptions())) {
      Poll.until(
          MOVER_PHASE_TIMEOUT,
          "a shard of " + plan.migrationId() + " to be frozen in etcd",
          () -> {
            Map<Integer, ShardAssignment> map = admin.read().assignments();
            for (int shard : plan.moves().keySet()) {
              if (map.get(shard).state() == ShardState.FROZEN) {
                frozen[0] = shard;
                return true;
              }
            }
            return false;
          },
          () -> mover.describe(80));
    }
    return frozen[0];
  }

  /**
   * SETs the probe key of a shard a killed mover left frozen until one succeeds (each try bounded
   * by the 1 s deadline, at most {@link #SERVE_TRIES} tries); returns when, after the kill, in ms.
   */
  private long awaitServed(int shard, long killedAt) {
    JumpgateCommands<String, String> redis = clients.get(0).connect().sync();
    String key = probeKeyOf.apply(shard);
    RuntimeException last = null;
    for (int attempt = 0; attempt < SERVE_TRIES; attempt++) {
      try {
        redis.set(key, "after-kill");
        return (System.nanoTime() - killedAt) / 1_000_000;
      } catch (RuntimeException e) {
        last = e;
      }
    }
    throw new IllegalStateException(
        "shard " + shard + " frozen by a killed mover was not served in " + SERVE_TRIES + " tries",
        last);
  }

  private void account(MoveResult result) {
    shardsCutOver += result.shardsCutOver().size();
    shardsNotMoved += result.shardsNotMoved().size();
    writesAfterCutover += result.writesAfterCutoverTotal();
  }

  /** Takes each planned shard's leader and epoch from etcd into the model; writes its replica. */
  private long adoptMoves(MovePlan plan) throws Exception {
    try (TopologyAdmin admin = TopologyAdmin.create(cluster.etcdOptions())) {
      Map<Integer, ShardAssignment> map = admin.read().assignments();
      for (int shard : plan.moves().keySet()) {
        ShardAssignment assignment = map.get(shard);
        if (assignment.state() != ShardState.ACTIVE || assignment.migration() != null) {
          throw new IllegalStateException(
              "shard " + shard + " is not settled after " + plan.migrationId() + ": " + assignment);
        }
        int group = ChaosCluster.groupOfNode(assignment.leader());
        if (!cluster.group(group).leaderId().equals(assignment.leader())) {
          throw new IllegalStateException(
              "shard " + shard + " is led by " + assignment.leader() + ", not its group's leader");
        }
        cluster.adopt(shard, group, assignment.epoch());
      }
    }
    long revision = cluster.writeShards(plan.moves().keySet());
    lastRevision = revision;
    return revision;
  }

  /** Figures of the migrations for the report. */
  Map<String, Object> migrationFigures() {
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("migrations", migrations);
    figures.put("moverKills", moverKills);
    figures.put("killsByPhase", new TreeMap<>(killsByPhase));
    figures.put("shardsCutOver", shardsCutOver);
    figures.put("shardsNotMoved", shardsNotMoved);
    figures.put("writesAfterCutover", writesAfterCutover);
    figures.put("longestMigrationMs", longestMigrationMs);
    figures.put("frozenLongestServedAfterKillMs", frozenLongestServedAfterKillMs);
    figures.put("frozenServeBoundMs", frozenServeBoundMs());
    return figures;
  }

  long writesAfterCutover() {
    return writesAfterCutover;
  }

  long frozenLongestServedAfterKillMs() {
    return frozenLongestServedAfterKillMs;
  }

  /** The lock's TTL + the drivers' freeze bound + the deadline of the try that succeeds. */
  long frozenServeBoundMs() {
    return KILLED_MOVER_LOCK_TTL
        .plus(JumpgateOptions.DEFAULT_FREEZE_MAX_WAIT)
        .plus(settings.commandTimeout())
        .toMillis();
  }

  /**
   * kill -9 of the leader, REPLICAOF NO ONE on its replica, the map; then the node comes back as
   * the new leader's replica. Every other time the replica is promoted {@link #LAG_BEFORE_CRASH}
   * before the leader dies (as a failover tool does when it loses sight of a leader that still
   * runs): what the leader acknowledges meanwhile never reaches the new leader, so the accounting
   * must show those writes as lost to a crash, and only as that.
   */
  private void crashFailover(Group group) throws Exception {
    RedisProcess dead = group.leader();
    RedisProcess promoted = group.replica();
    String deadId = group.leaderId();
    String promotedId = group.replicaId();
    boolean lagging = random.nextBoolean();
    // A loss counts as a crash loss when a crash started after the call of the last ack started
    // (see CounterLedger): started before the replica stops following, completed once the
    // leader is gone.
    cluster.crashStarting(group.index);
    if (lagging) {
      ChaosCluster.call(promoted, "REPLICAOF", "NO", "ONE");
      Thread.sleep(LAG_BEFORE_CRASH.toMillis()); // writes acknowledged meanwhile are lost
      dead.kill9();
    } else {
      dead.kill9();
      ChaosCluster.call(promoted, "REPLICAOF", "NO", "ONE");
    }
    cluster.crashCompleted(group.index);
    group.leader = 1 - group.leader;
    group.replicaAttached = false;
    long revision = cluster.leaderChanged(group);
    lastRevision = revision;
    // No client may still send to the dead node's address when it comes back empty as a master
    // (until REPLICAOF): wait until both clients applied the new map.
    awaitClientsApplied(revision);
    dead.restart();
    ChaosCluster.call(dead, "REPLICAOF", "127.0.0.1", Integer.toString(promoted.port()));
    cluster.awaitReplicaInSync(group);
    group.replicaAttached = true;
    lastRevision = cluster.replicaChanged(group);
    note(
        "crashFailover g%d: kill -9 %s%s, %s promoted (revision %d), %s back as its replica"
            + " (revision %d)",
        group.index,
        deadId,
        lagging ? " (" + LAG_BEFORE_CRASH.toMillis() + " ms after its replica's promotion)" : "",
        promotedId,
        revision,
        deadId,
        lastRevision);
  }

  /** SIGSTOP of a node (a leader 3 times in 4) for 2 s, then SIGCONT. */
  private void pauseNode() throws Exception {
    Group group = cluster.group(random.nextInt(settings.groups()));
    boolean leader = random.nextInt(4) != 0;
    RedisProcess node = leader ? group.leader() : group.replica();
    String id = leader ? group.leaderId() : group.replicaId();
    node.pause();
    try {
      Thread.sleep(PAUSE_LENGTH.toMillis()); // the length of the fault
    } finally {
      node.resume();
    }
    note(
        "nodePause: %s (%s) stopped for %d ms",
        id, leader ? "leader" : "replica", PAUSE_LENGTH.toMillis());
  }

  /** kill -9 of one etcd member; while it is down, shards move; then it restarts. */
  private void restartEtcdMember() throws Exception {
    int index = random.nextInt(cluster.etcd().size());
    EtcdMember member = cluster.etcd().member(index);
    member.kill9();
    long downSince = System.nanoTime();
    long revision = touchShards(" (etcd " + member.memberName() + " down)");
    long downFor = 500 + random.nextInt(1500);
    long left = downFor - (System.nanoTime() - downSince) / 1_000_000;
    if (left > 0) {
      Thread.sleep(left); // the length of the fault
    }
    member.restart();
    cluster.etcd().awaitHealthy();
    note(
        "etcdMemberRestart: %s killed for %d ms (map written meanwhile at revision %d)",
        member.memberName(), (System.nanoTime() - downSince) / 1_000_000, revision);
  }

  /** A map write, then compaction of etcd's history up to it. */
  private void compact() throws Exception {
    long revision = touchShards(" (before compaction)");
    cluster.compact(revision);
    note("etcdCompaction: compacted to revision %d", revision);
  }

  private void awaitClientsApplied(long revision) {
    long start = System.nanoTime();
    for (JumpgateClient client : clients) {
      try {
        Poll.until(
            CLIENT_APPLY_TIMEOUT,
            "a client to apply map revision " + revision,
            () -> client.topology().revision() >= revision);
      } catch (FixtureException e) {
        throw new IllegalStateException(
            "a client did not apply revision "
                + revision
                + " within "
                + CLIENT_APPLY_TIMEOUT.toSeconds()
                + " s: "
                + client.topologyStatus(),
            e);
      }
    }
    longestClientApplyNanos = Math.max(longestClientApplyNanos, System.nanoTime() - start);
  }

  private void note(String format, Object... args) {
    log.printf(
        Locale.ROOT,
        "[chaos %6.1fs] %s%n",
        (System.nanoTime() - startNanos) / 1e9,
        String.format(Locale.ROOT, format, args));
  }
}
