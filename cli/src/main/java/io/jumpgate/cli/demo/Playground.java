package io.jumpgate.cli.demo;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.spi.Node;
import io.jumpgate.testkit.LocalCluster;
import io.jumpgate.testkit.LocalClusterException;
import io.jumpgate.testkit.LocalNode;
import io.jumpgate.topology.EtcdClients;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The demo's cluster, started with jumpgate-testkit's {@link LocalCluster}: one etcd, {@value
 * #LEADERS} leader redis-servers {@code leader-0..2}, each with one replica {@code replica-i} that
 * replicates it ({@code --replicaof}), a fourth empty redis-server {@value #NEW_NODE} without
 * replica that the map does not list yet (the demo adds it mid-run), and the shard map of cluster
 * {@value #CLUSTER} in etcd: {@value #SHARDS} shards, shard {@code s} led by {@code leader-(s % 3)}
 * (the testkit writes the leaders through the admin API), with {@code replica-(s % 3)} as its
 * replica ({@link #alignReplicas}), so that the map's replicas are the servers that really
 * replicate the leader.
 *
 * <p>The demo's own map changes are plain etcd transactions that follow the topology contract (what
 * an operator's script would do), not {@code TopologyAdmin}: the admin's planner picks replicas
 * itself, which would not match the Redis replication pairs. Every change compares the mod revision
 * of each key it rewrites and fits one transaction (etcd runs with {@code --max-txn-ops 4096}), so
 * clients see it as one revision. The changes whose data moves (the demo runs them through the
 * migration module's {@code MapChangeMover}, which plans with the admin) are followed by {@link
 * #alignReplicas}, which puts the replica slots back on the Redis replication pairs.
 *
 * <p>The servers are read and steered (ROLE, DBSIZE, FAILOVER, the key check's KEYS and MGET) over
 * one Lettuce connection per server, not through the driver; each command waits at most {@code 2
 * s}, the key check's {@code 10 s}.
 *
 * <p>Not thread-safe: the demo's main thread drives it. {@link #close()} closes the etcd and Redis
 * clients; the processes stay until {@link #stopServers()} (or, after {@link #leaveRunning()},
 * beyond the JVM).
 */
final class Playground implements AutoCloseable {

  static final String CLUSTER = "demo";
  static final int SHARDS = 1024;
  static final int LEADERS = 3;

  /** The fourth server: started with the others, in the map only once the demo adds it. */
  static final String NEW_NODE = "leader-3";

  /** etcd refuses larger transactions; the demo's largest rewrites every shard with a compare. */
  private static final String MAX_TRANSACTION_OPERATIONS = "--max-txn-ops=4096";

  private static final Duration ETCD_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration KEY_CHECK_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(20);

  /** A map change: how many shards it rewrote, at which revision. */
  record MapWrite(int shards, long revision) {}

  private final LocalCluster cluster;
  private final Map<String, LocalNode> nodes;
  private final TopologyKeys keys = TopologyKeys.forCluster(CLUSTER);
  private final Client client;
  private final RedisClient redis;
  private final Map<String, StatefulRedisConnection<String, String>> connections =
      new LinkedHashMap<>();

  private Playground(LocalCluster cluster, Map<String, LocalNode> nodes) {
    this.cluster = cluster;
    this.nodes = nodes;
    this.client = EtcdClients.create(cluster.etcdOptions());
    this.redis = RedisClient.create();
  }

  /**
   * Starts etcd and the leaders with their map (jumpgate-testkit), then each leader's replica
   * (waiting until it has synced) and {@value #NEW_NODE}.
   *
   * @param environment where etcd and redis-server are looked up ({@code JUMPGATE_ETCD_BIN}, {@code
   *     JUMPGATE_REDIS_BIN}, {@code PATH})
   * @throws DemoException naming what did not start, with the end of its log as details; what had
   *     started is stopped
   */
  static Playground start(Map<String, String> environment) {
    LocalCluster cluster;
    try {
      cluster =
          LocalCluster.builder()
              .nodes(LEADERS)
              .shards(SHARDS)
              .cluster(CLUSTER)
              .etcdArguments(MAX_TRANSACTION_OPERATIONS)
              .binariesFrom(environment)
              .start();
    } catch (LocalClusterException e) {
      throw failedStart(e);
    }
    try {
      Map<String, LocalNode> nodes = new LinkedHashMap<>();
      for (int index = 0; index < LEADERS; index++) {
        nodes.put(leaderId(index), cluster.node(leaderId(index)));
        nodes.put(replicaId(index), cluster.startReplica(replicaId(index), leaderId(index)));
      }
      nodes.put(NEW_NODE, cluster.startNode(NEW_NODE));
      return new Playground(cluster, nodes);
    } catch (RuntimeException e) {
      try {
        cluster.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e instanceof LocalClusterException failed ? failedStart(failed) : e;
    }
  }

  /** The testkit's message: its first line as the error, the rest (a log's end) as details. */
  private static DemoException failedStart(LocalClusterException e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    String first = newline < 0 ? message : message.substring(0, newline);
    String rest = newline < 0 ? "" : message.substring(newline + 1);
    if (first.contains("sudo apt-get")) {
      first += " (bin/jumpgate demo installs it when run as root)";
    }
    return new DemoException(first, rest, e);
  }

  /** Tells {@code say} one line per server: name, address, pid, and what it replicates. */
  void describeServers(Consumer<String> say) {
    say.accept(row("etcd", cluster.etcdEndpoint(), cluster.etcdPid(), ""));
    nodes.forEach(
        (id, node) ->
            say.accept(
                row(
                    id,
                    node.address(),
                    node.pid(),
                    id.equals(NEW_NODE)
                        ? "not in the map yet"
                        : node.leaderId().map(leader -> "replicates " + leader).orElse(""))));
  }

  private static String row(String name, String address, long pid, String note) {
    return String.format("  %-10s %-22s pid %-7d %s", name, address, pid, note).stripTrailing();
  }

  static String leaderId(int index) {
    return "leader-" + index;
  }

  static String replicaId(int index) {
    return "replica-" + index;
  }

  /** The replica that replicates {@code leaderId} at the Redis level (or the reverse). */
  static String partnerOf(String nodeId) {
    return nodeId.startsWith("leader-")
        ? "replica-" + nodeId.substring("leader-".length())
        : "leader-" + nodeId.substring("replica-".length());
  }

  /** {@code http://127.0.0.1:<port>}. */
  String etcdEndpoint() {
    return cluster.etcdEndpoint();
  }

  /** The temp dir of the servers' data and logs. */
  String directory() {
    return cluster.directory().toString();
  }

  /** Every redis-server by node id: leader-0, replica-0, leader-1, ..., {@value #NEW_NODE}. */
  Map<String, LocalNode> nodes() {
    return nodes;
  }

  LocalNode node(String nodeId) {
    return nodes.get(nodeId);
  }

  /** The pid of each process by name, etcd first. */
  Map<String, Long> pids() {
    Map<String, Long> pids = new LinkedHashMap<>();
    pids.put("etcd", cluster.etcdPid());
    nodes.forEach((id, node) -> pids.put(id, node.pid()));
    return pids;
  }

  /** The fourth server as a node of the map, for {@code add-node}. */
  Node newNode() {
    return nodes.get(NEW_NODE).node();
  }

  /**
   * Redis's graceful failover of {@code leaderId} to its replica: {@code FAILOVER} on the leader
   * (it pauses writes until the replica has caught up, then the two swap roles); returns once the
   * replica reports the master role.
   */
  void redisFailover(String leaderId, Duration timeout) {
    String answer =
        redis(
            leaderId,
            "FAILOVER",
            commands ->
                commands.dispatch(
                    CommandKeyword.FAILOVER,
                    new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("TIMEOUT").add(timeout.toMillis())));
    if (!"OK".equals(answer)) {
      throw new DemoException("FAILOVER on " + leaderId + " answered " + answer);
    }
    awaitRole(partnerOf(leaderId), "master", timeout.plusSeconds(1));
  }

  /**
   * After a failover of {@code from} to {@code to}: every shard that {@code from} leads is given to
   * {@code to}, with {@code from} as its replica, epoch + 1; one transaction.
   */
  MapWrite failOverMap(String from, String to) {
    return rewriteShards(
        current ->
            current.leader().equals(from)
                ? new ShardAssignment(
                    current.shard(), to, List.of(from), current.epoch() + 1, current.state())
                : null);
  }

  /**
   * Reads every shard and writes, in one compare-and-set transaction, those for which {@code
   * change} gives a new assignment (null: unchanged).
   *
   * @return how many shards changed, and the revision (0 when none changed)
   */
  private MapWrite rewriteShards(Function<ShardAssignment, ShardAssignment> change) {
    return rewriteShards(change, List.of(), List.of());
  }

  /**
   * {@link #rewriteShards(Function)}, with {@code compares} and {@code puts} of other keys in the
   * same transaction (even when no shard changes).
   */
  private MapWrite rewriteShards(
      Function<ShardAssignment, ShardAssignment> change, List<Cmp> otherCompares, List<Op> others) {
    List<KeyValue> entries =
        await(
                client
                    .getKVClient()
                    .get(bytes(keys.shardsPrefix()), GetOption.builder().isPrefix(true).build()),
                "reading the shards")
            .getKvs();
    List<Cmp> compares = new ArrayList<>(otherCompares);
    List<Op> puts = new ArrayList<>();
    for (KeyValue entry : entries) {
      String key = entry.getKey().toString(StandardCharsets.UTF_8);
      int shard = keys.parse(key).shard();
      ShardAssignment next =
          change.apply(TopologyCodec.decodeAssignment(shard, entry.getValue().getBytes()));
      if (next != null) {
        compares.add(compareModRevision(key, entry.getModRevision()));
        puts.add(put(key, TopologyCodec.encodeAssignment(next)));
      }
    }
    int shards = puts.size();
    puts.addAll(others);
    return new MapWrite(shards, puts.isEmpty() ? 0 : commitChecked(compares, puts));
  }

  /**
   * Makes the map's replica slots those of the Redis replication again, map only, in one
   * transaction: each shard's replica is the server that replicates its leader ({@code ROLE}), or
   * none when its leader has no replica ({@value #NEW_NODE}), epoch + 1 for each shard that
   * changes. Moves with data and add-node give replica slots by the planner's balance, which knows
   * nothing of Redis replication: a slot on a server that does not replicate the leader would hold
   * none of the shard's keys.
   *
   * <p>A replicating server that the node table does not list yet (the replicas, the first time) is
   * added to it in the same transaction (compared absent).
   *
   * @return how many shards changed, and the revision (0 when nothing changed)
   */
  MapWrite alignReplicas() {
    Map<Integer, String> nodeByPort = new LinkedHashMap<>();
    nodes.forEach((id, node) -> nodeByPort.put(node.port(), id));
    Map<String, String> replicaOf = new LinkedHashMap<>();
    for (String nodeId : nodes.keySet()) {
      List<Object> role = redis(nodeId, "ROLE", RedisCommands::role);
      if (role != null && role.size() >= 3 && "slave".equals(String.valueOf(role.get(0)))) {
        String master = nodeByPort.get(Integer.parseInt(String.valueOf(role.get(2))));
        if (master != null) {
          replicaOf.put(master, nodeId);
        }
      }
    }
    List<String> listed =
        await(
                client
                    .getKVClient()
                    .get(
                        bytes(keys.nodesPrefix()),
                        GetOption.builder().isPrefix(true).withKeysOnly(true).build()),
                "reading the node table")
            .getKvs()
            .stream()
            .map(entry -> entry.getKey().toString(StandardCharsets.UTF_8))
            .toList();
    List<Cmp> absent = new ArrayList<>();
    List<Op> nodeEntries = new ArrayList<>();
    for (String replica : replicaOf.values()) {
      String key = keys.node(replica);
      if (!listed.contains(key)) {
        absent.add(new Cmp(bytes(key), Cmp.Op.EQUAL, CmpTarget.createRevision(0)));
        nodeEntries.add(put(key, TopologyCodec.encodeNode(nodes.get(replica).node())));
      }
    }
    return rewriteShards(
        current -> {
          String replica = replicaOf.get(current.leader());
          List<String> replicas = replica == null ? List.of() : List.of(replica);
          return current.replicas().equals(replicas)
              ? null
              : new ShardAssignment(
                  current.shard(),
                  current.leader(),
                  replicas,
                  current.epoch() + 1,
                  current.state(),
                  current.migration());
        },
        absent,
        nodeEntries);
  }

  /** {@code master} or {@code slave}, as ROLE says. */
  String role(String nodeId) {
    List<Object> role = redis(nodeId, "ROLE", RedisCommands::role);
    return role == null || role.isEmpty() ? "?" : String.valueOf(role.get(0));
  }

  /** How many keys the node holds (DBSIZE). */
  long keyCount(String nodeId) {
    Long count = redis(nodeId, "DBSIZE", RedisCommands::dbsize);
    return count == null ? -1 : count;
  }

  /**
   * Every key and its value on each of the servers that are Redis masters ({@code KEYS *}, then
   * {@code MGET}), for the key check; each reply within {@code 10 s}.
   *
   * @throws DemoException if a server cannot be read
   */
  Map<String, Map<String, String>> readMasters() {
    Map<String, RedisCommands<String, String>> masters = new LinkedHashMap<>();
    for (String nodeId : nodes.keySet()) {
      if (role(nodeId).equals("master")) {
        masters.put(nodeId, connection(nodeId).sync());
      }
    }
    masters.values().forEach(commands -> commands.setTimeout(KEY_CHECK_TIMEOUT));
    try {
      return KeyPlacementCheck.read(masters);
    } finally {
      masters.values().forEach(commands -> commands.setTimeout(REDIS_TIMEOUT));
    }
  }

  /** Closes the Redis connections and the etcd client; the servers keep running. */
  @Override
  public void close() {
    connections.values().forEach(StatefulRedisConnection::close);
    connections.clear();
    redis.shutdown(0, 2, TimeUnit.SECONDS);
    client.close();
  }

  /**
   * Stops every process and deletes the temp dir ({@link LocalCluster#close()}).
   *
   * @return how many processes were running and are gone now
   * @throws DemoException naming the processes that survived SIGKILL
   */
  int stopServers() {
    int running = (cluster.etcdRunning() ? 1 : 0);
    for (LocalNode node : nodes.values()) {
      running += node.isRunning() ? 1 : 0;
    }
    try {
      cluster.close();
    } catch (LocalClusterException e) {
      throw new DemoException(e.getMessage() + "; kill them by hand", e);
    }
    return running;
  }

  /** {@code --keep}: the processes outlive the JVM, the temp dir stays. */
  void leaveRunning() {
    cluster.leaveRunning();
  }

  private long commitChecked(List<Cmp> compares, List<Op> puts) {
    TxnResponse response =
        await(
            client
                .getKVClient()
                .txn()
                .If(compares.toArray(Cmp[]::new))
                .Then(puts.toArray(Op[]::new))
                .commit(),
            "changing the map");
    if (!response.isSucceeded()) {
      throw new DemoException("the map changed since it was read; nothing was written");
    }
    return response.getHeader().getRevision();
  }

  private static Cmp compareModRevision(String key, long modRevision) {
    return new Cmp(bytes(key), Cmp.Op.EQUAL, CmpTarget.modRevision(modRevision));
  }

  private static Op put(String key, byte[] value) {
    return Op.put(bytes(key), ByteSequence.from(value), PutOption.DEFAULT);
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  private <T> T await(CompletableFuture<T> future, String what) {
    try {
      return future.get(ETCD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new DemoException(
          what + " in etcd " + etcdEndpoint() + " failed: " + EtcdClients.describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoException("interrupted while " + what, e);
    }
  }

  private StatefulRedisConnection<String, String> connection(String nodeId) {
    return connections.computeIfAbsent(
        nodeId,
        id -> {
          LocalNode node = nodes.get(id);
          try {
            StatefulRedisConnection<String, String> connection =
                redis.connect(
                    RedisURI.builder()
                        .withHost("127.0.0.1")
                        .withPort(node.port())
                        .withTimeout(REDIS_TIMEOUT)
                        .build());
            connection.setTimeout(REDIS_TIMEOUT);
            return connection;
          } catch (RedisException e) {
            throw new DemoException(
                "cannot connect to " + id + " (" + node.address() + "): " + e.getMessage(), e);
          }
        });
  }

  /** One command on the node's connection; {@code what} names it in the error. */
  private <T> T redis(
      String nodeId, String what, Function<RedisCommands<String, String>, T> command) {
    try {
      return command.apply(connection(nodeId).sync());
    } catch (RedisException e) {
      throw new DemoException(
          what
              + " on "
              + nodeId
              + " ("
              + nodes.get(nodeId).address()
              + ") failed: "
              + e.getMessage(),
          e);
    }
  }

  private void awaitRole(String nodeId, String role, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!role.equals(role(nodeId))) {
      if (System.nanoTime() > deadline) {
        throw new DemoException(
            nodeId + " did not become " + role + " within " + timeout.toSeconds() + " s");
      }
      DemoCommand.pause(POLL_INTERVAL);
    }
  }
}
