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
import io.jumpgate.cli.demo.LocalServers.Server;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.EtcdClients;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyKeys;
import java.io.IOException;
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
 * The demo's cluster: one etcd, {@value #LEADERS} leader redis-servers {@code leader-0..2}, each
 * with one replica {@code replica-i} that replicates it ({@code --replicaof}), a fourth empty
 * redis-server {@value #NEW_NODE} without replica that the map does not list yet (the demo adds it
 * mid-run), and the shard map of cluster {@value #CLUSTER} in etcd: {@value #SHARDS} shards, shard
 * {@code s} led by {@code leader-(s % 3)} with {@code replica-(s % 3)} as its replica, so that the
 * map's replicas are the servers that really replicate the leader.
 *
 * <p>The map is written with plain etcd transactions that follow the topology contract (what an
 * operator's script would do), not with {@code TopologyAdmin}: the admin's planner picks replicas
 * itself, which would not match the Redis replication pairs. Every change compares the mod revision
 * of each key it rewrites and fits one transaction (etcd runs with {@code --max-txn-ops 4096}), so
 * clients see it as one revision. The changes whose data moves (the demo runs them through the
 * migration module's {@code MapChangeMover}, which plans with the admin) are followed by {@link
 * #alignReplicas}, which puts the replica slots back on the Redis replication pairs.
 *
 * <p>Not thread-safe: the demo's main thread drives it.
 */
final class Playground implements AutoCloseable {

  static final String CLUSTER = "demo";
  static final int SHARDS = 1024;
  static final int LEADERS = 3;

  /** The fourth server: started with the others, in the map only once the demo adds it. */
  static final String NEW_NODE = "leader-3";

  private static final Duration ETCD_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(20);

  /** A map change: how many shards it rewrote, at which revision. */
  record MapWrite(int shards, long revision) {}

  private final Server etcd;
  private final Map<String, Server> nodes;
  private final TopologyKeys keys = TopologyKeys.forCluster(CLUSTER);
  private final Client client;

  private Playground(Server etcd, Map<String, Server> nodes) {
    this.etcd = etcd;
    this.nodes = nodes;
    this.client =
        EtcdClients.create(
            EtcdTopologyOptions.builder().endpoints(etcdEndpoint()).cluster(CLUSTER).build());
  }

  /**
   * Starts etcd and the redis-servers, waits until every replica has synced with its leader.
   *
   * @param say told one line per started server
   */
  static Playground start(LocalServers servers, Consumer<String> say) {
    Server etcd = servers.startEtcd("etcd");
    say.accept(row("etcd", "http://" + etcd.address(), etcd.pid(), ""));
    Map<String, Server> nodes = new LinkedHashMap<>();
    for (int index = 0; index < LEADERS; index++) {
      // Redis waits 5 s before a diskless full sync by default; the replicas must sync at once.
      Server leader =
          servers.startRedis(leaderId(index), List.of("--repl-diskless-sync-delay", "0"));
      say.accept(row(leader.name(), leader.address(), leader.pid(), ""));
      Server replica =
          servers.startRedis(
              replicaId(index),
              List.of(
                  "--replicaof",
                  "127.0.0.1",
                  Integer.toString(leader.port()),
                  "--repl-diskless-sync-delay",
                  "0"));
      say.accept(
          row(replica.name(), replica.address(), replica.pid(), "replicates " + leader.name()));
      nodes.put(leader.name(), leader);
      nodes.put(replica.name(), replica);
    }
    Server added = servers.startRedis(NEW_NODE, List.of());
    say.accept(row(added.name(), added.address(), added.pid(), "not in the map yet"));
    nodes.put(added.name(), added);
    for (int index = 0; index < LEADERS; index++) {
      Server replica = nodes.get(replicaId(index));
      awaitInfo(
          replica,
          "master_link_status:up",
          SYNC_TIMEOUT,
          replica.name() + " to finish its first sync with " + leaderId(index));
    }
    return new Playground(etcd, nodes);
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
    return "http://" + etcd.address();
  }

  Server etcd() {
    return etcd;
  }

  /** Every redis-server by node id: leader-0, replica-0, leader-1, ..., {@value #NEW_NODE}. */
  Map<String, Server> nodes() {
    return nodes;
  }

  Server node(String nodeId) {
    return nodes.get(nodeId);
  }

  /** The fourth server as a node of the map, for {@code add-node}. */
  Node newNode() {
    return Node.of(NEW_NODE, "127.0.0.1", nodes.get(NEW_NODE).port());
  }

  /**
   * Writes the whole map in one transaction, only if the cluster has no meta yet (as {@code init}
   * does): the nodes (all but {@value #NEW_NODE}), every shard, meta last.
   *
   * @return the etcd revision of the map
   */
  long writeInitialMap() {
    List<Op> puts = new ArrayList<>();
    nodes.forEach(
        (id, server) -> {
          if (!id.equals(NEW_NODE)) {
            puts.add(
                put(
                    keys.node(id),
                    TopologyCodec.encodeNode(Node.of(id, "127.0.0.1", server.port()))));
          }
        });
    for (int shard = 0; shard < SHARDS; shard++) {
      int leader = shard % LEADERS;
      ShardAssignment assignment =
          ShardAssignment.of(shard, leaderId(leader), List.of(replicaId(leader)), 0);
      puts.add(put(keys.shard(shard), TopologyCodec.encodeAssignment(assignment)));
    }
    puts.add(put(keys.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(SHARDS))));
    TxnResponse response =
        await(
            client
                .getKVClient()
                .txn()
                .If(new Cmp(bytes(keys.meta()), Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(puts.toArray(Op[]::new))
                .commit(),
            "writing the map");
    if (!response.isSucceeded()) {
      throw new DemoException(
          "cluster '" + CLUSTER + "' already has a map in etcd " + etcdEndpoint());
    }
    return response.getHeader().getRevision();
  }

  /**
   * Redis's graceful failover of {@code leaderId} to its replica: {@code FAILOVER} on the leader
   * (it pauses writes until the replica has caught up, then the two swap roles); returns once the
   * replica reports the master role.
   */
  void redisFailover(String leaderId, Duration timeout) {
    Server leader = node(leaderId);
    Server replica = node(partnerOf(leaderId));
    Object answer = redis(leader, "FAILOVER", "TIMEOUT", Long.toString(timeout.toMillis()));
    if (!"OK".equals(answer)) {
      throw new DemoException("FAILOVER on " + leaderId + " answered " + answer);
    }
    awaitRole(replica, "master", timeout.plusSeconds(1));
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
    List<KeyValue> entries =
        await(
                client
                    .getKVClient()
                    .get(bytes(keys.shardsPrefix()), GetOption.builder().isPrefix(true).build()),
                "reading the shards")
            .getKvs();
    List<Cmp> compares = new ArrayList<>();
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
    return new MapWrite(puts.size(), puts.isEmpty() ? 0 : commitChecked(compares, puts));
  }

  /**
   * Makes the map's replica slots those of the Redis replication again, map only, in one
   * transaction: each shard's replica is the server that replicates its leader ({@code ROLE}), or
   * none when its leader has no replica ({@value #NEW_NODE}), epoch + 1 for each shard that
   * changes. Moves with data and add-node give replica slots by the planner's balance, which knows
   * nothing of Redis replication: a slot on a server that does not replicate the leader would hold
   * none of the shard's keys.
   *
   * @return how many shards changed, and the revision (0 when none changed)
   */
  MapWrite alignReplicas() {
    Map<Integer, String> nodeByPort = new LinkedHashMap<>();
    nodes.forEach((id, server) -> nodeByPort.put(server.port(), id));
    Map<String, String> replicaOf = new LinkedHashMap<>();
    for (Map.Entry<String, Server> node : nodes.entrySet()) {
      Object answer = redis(node.getValue(), "ROLE");
      if (answer instanceof List<?> role
          && role.size() >= 3
          && "slave".equals(String.valueOf(role.get(0)))) {
        String master = nodeByPort.get(Integer.parseInt(String.valueOf(role.get(2))));
        if (master != null) {
          replicaOf.put(master, node.getKey());
        }
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
        });
  }

  /** {@code master} or {@code slave}, as ROLE says. */
  String role(String nodeId) {
    Object answer = redis(node(nodeId), "ROLE");
    return answer instanceof List<?> list && !list.isEmpty() ? String.valueOf(list.get(0)) : "?";
  }

  /** How many keys the node holds (DBSIZE). */
  long keyCount(String nodeId) {
    Object answer = redis(node(nodeId), "DBSIZE");
    return answer instanceof Long count ? count : -1;
  }

  @Override
  public void close() {
    client.close();
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

  private static Object redis(Server server, String... command) {
    try {
      return Resp.call(server.port(), REDIS_TIMEOUT, command);
    } catch (IOException e) {
      throw new DemoException(
          String.join(" ", command)
              + " on "
              + server.name()
              + " ("
              + server.address()
              + ") failed: "
              + e.getMessage(),
          e);
    }
  }

  private static void awaitInfo(Server server, String line, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!String.valueOf(redis(server, "INFO", "replication")).contains(line)) {
      if (System.nanoTime() > deadline) {
        throw new DemoException(
            "timed out after " + timeout.toSeconds() + " s waiting for " + what);
      }
      LocalServers.pause(POLL_INTERVAL);
    }
  }

  private void awaitRole(Server server, String role, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!role.equals(role(server.name()))) {
      if (System.nanoTime() > deadline) {
        throw new DemoException(
            server.name() + " did not become " + role + " within " + timeout.toSeconds() + " s");
      }
      LocalServers.pause(POLL_INTERVAL);
    }
  }
}
