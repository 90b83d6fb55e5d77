package io.jumpgate.it.chaos;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.FixtureException;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.testkit.Resp;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The cluster a chaos run works on, and the controller's model of it: a 3-member etcd, and {@code
 * groups} replication groups of two redis-servers each (node ids {@code g<i>-a} and {@code g<i>-b};
 * either may be the group's leader, the other its replica). Every shard belongs to one group: its
 * leader is the group's current leader, its replica the other node while that one is in sync.
 *
 * <p>The model (which node leads each group, each shard's group and epoch) is changed only by the
 * controller thread; {@link #crashesStarted} and {@link #crashesCompleted} are read by writer
 * threads. Every change of a shard's leader bumps its epoch, as the topology contract asks.
 */
final class ChaosCluster implements AutoCloseable {
  /** The group of a counter whose shard moves between groups: a crash of any group counts. */
  static final int ANY_GROUP = -1;

  private static final Duration ETCD_WRITE_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);

  /** One replication group: two redis-servers, one of them leading. */
  static final class Group {
    final int index;
    final RedisProcess[] nodes;
    int leader;
    boolean replicaAttached = true;

    Group(int index, RedisProcess first, RedisProcess second) {
      this.index = index;
      this.nodes = new RedisProcess[] {first, second};
    }

    RedisProcess leader() {
      return nodes[leader];
    }

    RedisProcess replica() {
      return nodes[1 - leader];
    }

    String leaderId() {
      return nodeId(index, leader);
    }

    String replicaId() {
      return nodeId(index, 1 - leader);
    }
  }

  private final ProcessFixture fixture;
  private final EtcdCluster etcd;
  private final String clusterName;
  private final int shards;
  private final List<Group> groups = new ArrayList<>();
  private final int[] shardGroup;
  private final long[] shardEpoch;
  private final AtomicLongArray crashesStarted;
  private final AtomicLongArray crashesCompleted;
  private final AtomicLongArray crashStartNanos;
  private final Client client;

  private ChaosCluster(
      ProcessFixture fixture, EtcdCluster etcd, String clusterName, int shards, int groupCount) {
    this.fixture = fixture;
    this.etcd = etcd;
    this.clusterName = clusterName;
    this.shards = shards;
    this.shardGroup = new int[shards];
    this.shardEpoch = new long[shards];
    this.crashesStarted = new AtomicLongArray(groupCount);
    this.crashesCompleted = new AtomicLongArray(groupCount);
    this.crashStartNanos = new AtomicLongArray(groupCount);
    this.client = etcd.newClient();
  }

  /** Starts etcd (3 members) and the redis-servers, waits for the replicas, writes the map. */
  static ChaosCluster start(ProcessFixture fixture, String clusterName, int shards, int groupCount)
      throws Exception {
    EtcdCluster etcd = fixture.etcd(EtcdCluster.options().members(3));
    ChaosCluster cluster =
        fixture.register(new ChaosCluster(fixture, etcd, clusterName, shards, groupCount));
    for (int group = 0; group < groupCount; group++) {
      // Redis waits 5 s by default before a diskless full sync; a replica must sync at once.
      RedisProcess leader = fixture.redis("--repl-diskless-sync-delay", "0");
      RedisProcess replica =
          fixture.redis(
              "--replicaof",
              "127.0.0.1",
              Integer.toString(leader.port()),
              "--repl-diskless-sync-delay",
              "0");
      cluster.groups.add(new Group(group, leader, replica));
    }
    for (Group group : cluster.groups) {
      cluster.awaitReplicaInSync(group);
    }
    for (int shard = 0; shard < shards; shard++) {
      cluster.shardGroup[shard] = shard % groupCount;
    }
    List<Op> puts = new ArrayList<>();
    for (Group group : cluster.groups) {
      for (int node = 0; node < 2; node++) {
        puts.add(cluster.put("nodes/" + nodeId(group.index, node), nodeJson(group.nodes[node])));
      }
    }
    for (int shard = 0; shard < shards; shard++) {
      puts.add(cluster.put(shardKey(shard), cluster.assignmentJson(shard)));
    }
    puts.add(
        cluster.put("meta", "{\"format\":1,\"shards\":" + shards + ",\"routing\":\"xxh64-jump\"}"));
    cluster.commit(puts);
    return cluster;
  }

  static String nodeId(int group, int node) {
    return "g" + group + "-" + (node == 0 ? "a" : "b");
  }

  static String shardKey(int shard) {
    return String.format("shards/%04d", shard);
  }

  private static String nodeJson(RedisProcess process) {
    return "{\"host\":\"127.0.0.1\",\"port\":" + process.port() + "}";
  }

  EtcdCluster etcd() {
    return etcd;
  }

  String clusterName() {
    return clusterName;
  }

  int shards() {
    return shards;
  }

  List<Group> groups() {
    return groups;
  }

  Group group(int index) {
    return groups.get(index);
  }

  int groupOf(int shard) {
    return shardGroup[shard];
  }

  long epochOf(int shard) {
    return shardEpoch[shard];
  }

  /**
   * How many times a leader of the group ({@link #ANY_GROUP}: of any group) was about to be killed
   * (bumped before the kill).
   */
  long crashesStarted(int group) {
    return group == ANY_GROUP ? sum(crashesStarted) : crashesStarted.get(group);
  }

  /**
   * How many times a leader of the group ({@link #ANY_GROUP}: of any group) was killed and gone
   * (bumped once it is gone).
   */
  long crashesCompleted(int group) {
    return group == ANY_GROUP ? sum(crashesCompleted) : crashesCompleted.get(group);
  }

  /**
   * When the latest crash of the group ({@link #ANY_GROUP}: of any group) started, on {@link
   * System#nanoTime()}; meaningful once {@link #crashesStarted} is above zero.
   */
  long lastCrashStartNanos(int group) {
    if (group != ANY_GROUP) {
      return crashStartNanos.get(group);
    }
    long latest = Long.MIN_VALUE;
    boolean any = false;
    for (int index = 0; index < crashStartNanos.length(); index++) {
      if (crashesStarted.get(index) > 0 && (!any || crashStartNanos.get(index) - latest > 0)) {
        latest = crashStartNanos.get(index);
        any = true;
      }
    }
    return latest;
  }

  private static long sum(AtomicLongArray counts) {
    long total = 0;
    for (int index = 0; index < counts.length(); index++) {
      total += counts.get(index);
    }
    return total;
  }

  void crashStarting(int group) {
    crashStartNanos.set(group, System.nanoTime());
    crashesStarted.incrementAndGet(group);
  }

  void crashCompleted(int group) {
    crashesCompleted.incrementAndGet(group);
  }

  /** The shards that belong to a group now. */
  List<Integer> shardsOf(int group) {
    List<Integer> result = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      if (shardGroup[shard] == group) {
        result.add(shard);
      }
    }
    return result;
  }

  /** The shard's assignment as the model has it now. */
  String assignmentJson(int shard) {
    Group group = groups.get(shardGroup[shard]);
    String replicas = group.replicaAttached ? "\"" + group.replicaId() + "\"" : "";
    return "{\"leader\":\""
        + group.leaderId()
        + "\",\"replicas\":["
        + replicas
        + "],\"epoch\":"
        + shardEpoch[shard]
        + "}";
  }

  // ---- changes of the model, each followed by a write of the shards it touched ---------------

  /** The group's leader changed: every shard of the group gets the new leader and a new epoch. */
  long leaderChanged(Group group) throws Exception {
    List<Integer> touched = shardsOf(group.index);
    for (int shard : touched) {
      shardEpoch[shard]++;
    }
    return writeShards(touched);
  }

  /**
   * Gives a shard to another group in the model (its leader changes: a new epoch); {@link
   * #writeShards} writes it.
   */
  void reassign(int shard, int toGroup) {
    shardGroup[shard] = toGroup;
    shardEpoch[shard]++;
  }

  /**
   * A shard moved to another group with its data (by a mover, which wrote its new leader and epoch
   * to etcd): the model takes the group and the epoch etcd has; {@link #writeShards} then gives the
   * shard its new group's replica.
   */
  void adopt(int shard, int group, long epoch) {
    shardGroup[shard] = group;
    shardEpoch[shard] = epoch;
  }

  /** The group of a node id {@code g<i>-a} or {@code g<i>-b}. */
  static int groupOfNode(String nodeId) {
    if (!nodeId.matches("g[0-9]+-[ab]")) {
      throw new IllegalArgumentException("not a node id of the chaos cluster: " + nodeId);
    }
    return Integer.parseInt(nodeId.substring(1, nodeId.indexOf('-')));
  }

  /** The etcd options of this cluster, for a mover or an admin. */
  EtcdTopologyOptions etcdOptions() {
    return EtcdTopologyOptions.builder()
        .endpoints(etcd.endpointList())
        .cluster(clusterName)
        .build();
  }

  /** Writes one key under the cluster's root (e.g. a client registration); returns the revision. */
  long putKey(String relativeKey, String value) throws Exception {
    return commit(List.of(put(relativeKey, value)));
  }

  /** Deletes one key under the cluster's root; returns the revision. */
  long deleteKey(String relativeKey) throws Exception {
    return retryEtcd(
            "delete " + relativeKey, () -> client.getKVClient().delete(bytes(root() + relativeKey)))
        .getHeader()
        .getRevision();
  }

  /** The group's replica is back in sync (or gone): its shards list it again (or no longer). */
  long replicaChanged(Group group) throws Exception {
    return writeShards(shardsOf(group.index));
  }

  /** Writes the model's assignment of the shards in one transaction; returns its revision. */
  long writeShards(Collection<Integer> touched) throws Exception {
    List<Op> puts = new ArrayList<>();
    for (int shard : touched) {
      puts.add(put(shardKey(shard), assignmentJson(shard)));
    }
    return commit(puts);
  }

  /** Compacts etcd's history up to {@code revision}. */
  void compact(long revision) throws Exception {
    retryEtcd("compact to revision " + revision, () -> client.getKVClient().compact(revision));
  }

  private Op put(String relativeKey, String value) {
    return Op.put(bytes(root() + relativeKey), bytes(value), PutOption.DEFAULT);
  }

  String root() {
    return "/jumpgate/" + clusterName + "/";
  }

  /**
   * Commits the puts in one transaction, trying again (bounded) while etcd has no leader or the
   * client's member is down. A put that is applied twice writes the same value: harmless.
   */
  private long commit(List<Op> puts) throws Exception {
    return retryEtcd(
            "write " + puts.size() + " keys",
            () -> client.getKVClient().txn().Then(puts.toArray(Op[]::new)).commit())
        .getHeader()
        .getRevision();
  }

  private interface EtcdCall<T> {
    java.util.concurrent.CompletableFuture<T> call();
  }

  private <T> T retryEtcd(String what, EtcdCall<T> call) throws Exception {
    long deadline = System.nanoTime() + ETCD_WRITE_TIMEOUT.toNanos();
    Exception last;
    do {
      try {
        return call.call().get(3, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        last = e;
      }
      Thread.sleep(100); // backoff between tries of a failed etcd call, not a synchronisation
    } while (System.nanoTime() < deadline);
    throw new FixtureException(
        "etcd: could not "
            + what
            + " within "
            + ETCD_WRITE_TIMEOUT.toSeconds()
            + " s (live members "
            + etcd.liveEndpoints()
            + ")",
        last);
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  // ---- redis helpers ---------------------------------------------------------------------------

  /**
   * Waits until the group's replica has a live link to its leader and the leader lists it online
   * (its initial sync is done; it may still lag by the writes of the last moment).
   */
  void awaitReplicaInSync(Group group) {
    RedisProcess leader = group.leader();
    RedisProcess replica = group.replica();
    Poll.until(
        SYNC_TIMEOUT,
        "replica "
            + nodeId(group.index, 1 - group.leader)
            + " ("
            + replica.address()
            + ") to be in sync with "
            + group.leaderId()
            + " ("
            + leader.address()
            + ")",
        () -> {
          String replicaInfo = info(replica);
          if (!replicaInfo.contains("master_link_status:up")
              || !replicaInfo.contains("master_port:" + leader.port())) {
            return false;
          }
          String leaderInfo = info(leader);
          return leaderInfo.contains("role:master")
              && leaderInfo.contains("port=" + replica.port() + ",state=online");
        });
  }

  /** Waits until the node says it is a master. */
  static void awaitRole(RedisProcess node, String role, String what) {
    Poll.until(
        SYNC_TIMEOUT,
        what,
        () -> {
          Object reply = node.call(Duration.ofSeconds(1), "ROLE");
          return reply instanceof List<?> list && role.equals(list.get(0));
        });
  }

  static String info(RedisProcess node) throws IOException {
    return String.valueOf(node.call(Duration.ofSeconds(1), "INFO", "replication"));
  }

  /** One command on a fresh connection; an error reply becomes an exception naming the node. */
  static Object call(RedisProcess node, String... command) throws IOException {
    Object reply = node.call(Duration.ofSeconds(5), command);
    if (reply instanceof Resp.Error error) {
      throw new FixtureException(
          String.join(" ", command) + " on " + node.address() + " failed: " + error.message());
    }
    return reply;
  }

  ProcessFixture fixture() {
    return fixture;
  }

  @Override
  public void close() {
    client.close();
  }
}
