package io.jumpgate.bench.endtoend;

import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.it.fixture.TwemproxyProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Everything the comparison runs against, on 127.0.0.1: etcd and 3 standalone redis-server leaders
 * with a 1024-shard Jumpgate map (for Jumpgate and the direct baseline); twemproxy in front of the
 * same 3 leaders; a 3-master Redis Cluster for Lettuce's cluster client. All processes belong to
 * the fixture scope passed in and are killed when it closes (or by shutdown hooks on Ctrl-C).
 */
final class Servers {
  static final String CLUSTER_NAME = "bench";
  static final int SHARDS = 1024;
  static final int NODES = 3;

  private final LocalCluster jumpgateCluster;
  private final List<RedisProcess> redisClusterNodes;
  private final TwemproxyProcess twemproxy;

  private Servers(
      LocalCluster jumpgateCluster,
      List<RedisProcess> redisClusterNodes,
      TwemproxyProcess twemproxy) {
    this.jumpgateCluster = jumpgateCluster;
    this.redisClusterNodes = redisClusterNodes;
    this.twemproxy = twemproxy;
  }

  static Servers start(ProcessFixture fixture) throws Exception {
    LocalCluster local = LocalCluster.start(fixture, CLUSTER_NAME, SHARDS, NODES, 0);
    // one preconnected server connection per node, as the other systems have
    TwemproxyProcess twemproxy =
        fixture.twemproxy(
            List.of("preconnect: true", "server_connections: 1"),
            local.leaders().toArray(RedisProcess[]::new));
    List<RedisProcess> clusterNodes = new ArrayList<>();
    for (int index = 0; index < NODES; index++) {
      clusterNodes.add(
          fixture.redis(
              "--cluster-enabled",
              "yes",
              "--cluster-config-file",
              "nodes.conf",
              "--cluster-node-timeout",
              "5000"));
    }
    createRedisCluster(clusterNodes, fixture.tempDir("redis-cli"));
    return new Servers(local, clusterNodes, twemproxy);
  }

  /** {@code redis-cli}: {@code JUMPGATE_REDIS_CLI_BIN}, else from PATH. */
  static String redisCli() {
    String override = System.getenv("JUMPGATE_REDIS_CLI_BIN");
    return override == null || override.isBlank() ? "redis-cli" : override;
  }

  private static void createRedisCluster(List<RedisProcess> nodes, Path workDir)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(redisCli(), "--cluster", "create"));
    for (RedisProcess node : nodes) {
      command.add(node.address());
    }
    command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
    Path output = workDir.resolve("cluster-create.log");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    if (!exited || process.exitValue() != 0) {
      throw new IllegalStateException(
          String.join(" ", command)
              + (exited ? " failed with exit code " + process.exitValue() : " took over 60 s")
              + ": "
              + Files.readString(output, StandardCharsets.UTF_8));
    }
    for (RedisProcess node : nodes) {
      Poll.until(
          Duration.ofSeconds(30),
          "CLUSTER INFO on " + node.address() + " to say cluster_state:ok",
          () -> String.valueOf(node.call("CLUSTER", "INFO")).contains("cluster_state:ok"));
    }
  }

  LocalCluster jumpgateCluster() {
    return jumpgateCluster;
  }

  List<RedisProcess> redisClusterNodes() {
    return redisClusterNodes;
  }

  TwemproxyProcess twemproxy() {
    return twemproxy;
  }
}
