package io.jumpgate.spring.it;

import io.jumpgate.testkit.LocalCluster;
import io.jumpgate.testkit.LocalNode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Spring ITs' cluster: jumpgate-testkit's {@link LocalCluster} (one etcd and N leader
 * redis-servers {@code leader-0} .. {@code leader-(N-1)} on free 127.0.0.1 ports, no replicas, the
 * map written through the admin API), and the few reads the ITs make of one server directly
 * (DBSIZE, EXISTS, PTTL, PUBSUB NUMSUB), over a Lettuce connection of their own per server, each
 * answer within 2 s.
 *
 * <p>{@link #close()} closes those connections and the cluster (every process stopped, the temp dir
 * deleted; the testkit's shutdown hook does it if the JVM ends first). Use it in
 * try-with-resources. Not thread-safe: a test's thread uses it.
 */
final class LocalNodes implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final LocalCluster cluster;
  private final RedisClient redis = RedisClient.create();
  private final Map<String, StatefulRedisConnection<String, String>> connections =
      new LinkedHashMap<>();

  private LocalNodes(LocalCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * Starts etcd and {@code leaders} redis-servers, and writes a topology of {@code shards} shards
   * for {@code cluster} in etcd.
   */
  static LocalNodes start(String cluster, int shards, int leaders) {
    return new LocalNodes(
        LocalCluster.builder().cluster(cluster).shards(shards).nodes(leaders).start());
  }

  /** {@code http://127.0.0.1:<port>} */
  String etcdEndpoint() {
    return cluster.etcdEndpoint();
  }

  /** Node id -> port of each redis-server, {@code leader-0} first. */
  Map<String, Integer> redisPorts() {
    Map<String, Integer> ports = new LinkedHashMap<>();
    cluster.leaders().forEach(node -> ports.put(node.id(), node.port()));
    return ports;
  }

  /** DBSIZE of one node. */
  long dbsize(String nodeId) throws IOException {
    return call(nodeId, "DBSIZE", RedisCommands::dbsize);
  }

  /**
   * Whether one node holds the key: {@code redis-cli EXISTS <key>} on it, as a person would check
   * ({@code LocalNode.redisCli}, bounded to 10 s).
   */
  boolean holds(String nodeId, String key) throws IOException {
    String answer = cluster.node(nodeId).redisCli("EXISTS", key);
    if (!answer.equals("1") && !answer.equals("0")) {
      throw new IOException("redis-cli EXISTS " + key + " on " + nodeId + " answered " + answer);
    }
    return answer.equals("1");
  }

  /** PTTL of a key on one node (-2: no such key, -1: no expiry). */
  long pttl(String nodeId, String key) throws IOException {
    return call(nodeId, "PTTL " + key, commands -> commands.pttl(key));
  }

  /** How many clients of one node subscribe to the channel (PUBSUB NUMSUB). */
  long subscribers(String nodeId, String channel) throws IOException {
    return call(
        nodeId,
        "PUBSUB NUMSUB " + channel,
        commands -> commands.pubsubNumsub(channel).getOrDefault(channel, 0L));
  }

  /** Kills one redis-server (SIGKILL) and waits for it to be gone. */
  void stopRedis(String nodeId) {
    StatefulRedisConnection<String, String> connection = connections.remove(nodeId);
    if (connection != null) {
      connection.close();
    }
    cluster.node(nodeId).kill();
  }

  /** Kills etcd (SIGKILL) and waits for it to be gone. */
  void stopEtcd() {
    cluster.killEtcd();
  }

  private interface Command<T> {
    T call(RedisCommands<String, String> commands);
  }

  private <T> T call(String nodeId, String what, Command<T> command) throws IOException {
    LocalNode node = cluster.node(nodeId);
    try {
      StatefulRedisConnection<String, String> connection =
          connections.computeIfAbsent(
              nodeId,
              id ->
                  redis.connect(
                      RedisURI.builder()
                          .withHost("127.0.0.1")
                          .withPort(node.port())
                          .withTimeout(TIMEOUT)
                          .build()));
      return command.call(connection.sync());
    } catch (RedisException e) {
      throw new IOException(what + " on " + node + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      connections.values().forEach(StatefulRedisConnection::close);
      connections.clear();
      redis.shutdown(Duration.ZERO, TIMEOUT);
    } finally {
      cluster.close();
    }
  }
}
