package io.jumpgate.it.chaos;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.it.chaos.ChaosCluster.Group;
import io.jumpgate.it.fixture.EtcdMember;
import io.jumpgate.it.fixture.FixtureException;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.RedisProcess;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Injects one fault at a time, at random from a seeded {@link Random}, with a bounded pause between
 * two faults, and heals each before the next: after a fault every group again has a leader and an
 * in-sync replica, and every etcd member runs. The first faults visit every {@link Fault} type
 * once, in a seeded order, so even a short run sees each.
 *
 * <p>Shard moves between groups do not move data, so they only move shards that carry no counters
 * ({@link ChaosSettings#isPinned}): the counters' accounting stays exact, and the versioned values
 * on moved shards are only compared within one leader epoch.
 *
 * <p>Runs on the thread that calls {@link #run}; it alone changes the cluster model.
 */
final class FaultController {

  /** The kinds of fault, by their name in the report. */
  enum Fault {
    GRACEFUL_SWITCH("gracefulSwitch", 3),
    SHARD_MOVE("shardMove", 3),
    CRASH_FAILOVER("crashFailover", 2),
    NODE_PAUSE("nodePause", 2),
    ETCD_MEMBER_RESTART("etcdMemberRestart", 1),
    ETCD_COMPACTION("etcdCompaction", 1);

    final String reportName;
    final int weight;

    Fault(String reportName, int weight) {
      this.reportName = reportName;
      this.weight = weight;
    }
  }

  private static final Duration PAUSE_LENGTH = Duration.ofSeconds(2);
  private static final Duration LAG_BEFORE_CRASH = Duration.ofMillis(300);
  private static final Duration CLIENT_APPLY_TIMEOUT = Duration.ofSeconds(20);

  private final ChaosSettings settings;
  private final ChaosCluster cluster;
  private final List<JumpgateClient> clients;
  private final PrintStream log;
  private final long startNanos;
  private final Random random;
  private final Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
  private long lastRevision;
  private long longestClientApplyNanos;

  FaultController(
      ChaosSettings settings,
      ChaosCluster cluster,
      List<JumpgateClient> clients,
      PrintStream log,
      long startNanos) {
    this.settings = settings;
    this.cluster = cluster;
    this.clients = clients;
    this.log = log;
    this.startNanos = startNanos;
    this.random = new Random(settings.seed());
  }

  /** Injects faults until {@code deadlineNanos}, then returns with the last one healed. */
  void run(long deadlineNanos) throws Exception {
    List<Fault> firstRound = new ArrayList<>(List.of(Fault.values()));
    Collections.shuffle(firstRound, random);
    while (System.nanoTime() < deadlineNanos) {
      Fault fault = firstRound.isEmpty() ? pick() : firstRound.remove(0);
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
      case SHARD_MOVE -> moveShards("");
      case CRASH_FAILOVER -> crashFailover(cluster.group(random.nextInt(settings.groups())));
      case NODE_PAUSE -> pauseNode();
      case ETCD_MEMBER_RESTART -> restartEtcdMember();
      case ETCD_COMPACTION -> compact();
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

  /** Moves 1 to 3 shards that carry no counters to other groups, in one revision. */
  private long moveShards(String context) throws Exception {
    List<Integer> movable = new ArrayList<>();
    for (int shard = 0; shard < settings.shards(); shard++) {
      if (!settings.isPinned(shard)) {
        movable.add(shard);
      }
    }
    Collections.shuffle(movable, random);
    Set<Integer> moved = new LinkedHashSet<>(movable.subList(0, 1 + random.nextInt(3)));
    StringBuilder text = new StringBuilder();
    for (int shard : moved) {
      int from = cluster.groupOf(shard);
      int to = (from + 1 + random.nextInt(settings.groups() - 1)) % settings.groups();
      cluster.reassign(shard, to);
      text.append(String.format(Locale.ROOT, " %d:g%d->g%d", shard, from, to));
    }
    long revision = cluster.writeShards(moved);
    lastRevision = revision;
    counts.merge(Fault.SHARD_MOVE, context.isEmpty() ? 0 : 1, Integer::sum);
    note("shardMove%s:%s, map at revision %d", context, text, revision);
    return revision;
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
    long revision = moveShards(" (etcd " + member.memberName() + " down)");
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
    long revision = moveShards(" (before compaction)");
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
