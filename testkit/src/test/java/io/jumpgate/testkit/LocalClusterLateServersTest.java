package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.topology.TopologyAdmin;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Servers started after the cluster ({@link LocalCluster#startNode}, {@link
 * LocalCluster#startReplica}), etcd's extra arguments, and a cluster left running, against real
 * etcd and redis-server processes.
 */
class LocalClusterLateServersTest {

  private LocalCluster cluster;
  private final List<Long> leftRunning = new ArrayList<>();
  private Path leftDirectory;

  @AfterEach
  void stopEverything() throws Exception {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      for (long pid : leftRunning) {
        ProcessHandle.of(pid)
            .ifPresent(
                process -> {
                  process.destroyForcibly();
                  process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                });
      }
      if (leftDirectory != null) {
        try (Stream<Path> walk = Files.walk(leftDirectory)) {
          for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(path);
          }
        }
      }
    }
  }

  @Test
  void should_start_a_node_and_a_replica_outside_the_map_and_stop_them_on_close() throws Exception {
    cluster =
        LocalCluster.builder()
            .nodes(1)
            .shards(8)
            .cluster("late")
            .etcdArguments("--max-txn-ops=4096")
            .start();

    LocalNode added = cluster.startNode("leader-9");
    LocalNode replica = cluster.startReplica("copy-0", "leader-0");

    assertThat(added.role()).isEqualTo(LocalNode.Role.LEADER);
    assertThat(call(added, "PING")).isEqualTo("PONG");
    assertThat(replica.role()).isEqualTo(LocalNode.Role.REPLICA);
    assertThat(replica.leaderId()).contains("leader-0");
    // the replica has synced with its leader before startReplica returned
    assertThat(call(replica, "INFO", "replication"))
        .contains("master_link_status:up", "master_port:" + cluster.node("leader-0").port());
    assertThat(cluster.nodes()).containsKeys("leader-0", "leader-9", "copy-0");
    // and the map does not list them
    try (TopologyAdmin admin = cluster.newAdmin()) {
      assertThat(admin.read().nodes().keySet()).containsExactly("leader-0");
    }
    // etcd runs with the extra argument
    assertThat(commandLine(cluster.etcdPid())).contains("--max-txn-ops=4096");

    cluster.close();

    assertThat(added.isRunning()).isFalse();
    assertThat(replica.isRunning()).isFalse();
  }

  @Test
  void should_refuse_a_taken_id_a_missing_leader_and_a_bad_etcd_argument() {
    cluster = LocalCluster.builder().nodes(1).shards(8).start();

    assertThatThrownBy(() -> cluster.startNode("leader-0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("local cluster 'test' already has a node 'leader-0'");
    assertThatThrownBy(() -> cluster.startReplica("copy-0", "leader-7"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no node 'leader-7' in local cluster 'test'");
    assertThatThrownBy(() -> cluster.startNode(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a node id must be a non-blank word without '/', was ' '");
    assertThatThrownBy(() -> LocalCluster.builder().etcdArguments("max-txn-ops=4096"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "an etcd argument must be one --option=value without spaces, was 'max-txn-ops=4096'");
  }

  @Test
  void should_leave_the_processes_and_the_directory_when_left_running() {
    cluster = LocalCluster.builder().nodes(1).shards(8).start();
    LocalNode node = cluster.node("leader-0");
    leftRunning.add(node.pid());
    leftRunning.add(cluster.etcdPid());
    Path directory = cluster.directory();
    long etcdPid = cluster.etcdPid();

    cluster.leaveRunning();
    cluster.close();

    assertThat(ProcessHandle.of(node.pid()).map(ProcessHandle::isAlive)).contains(true);
    assertThat(ProcessHandle.of(etcdPid).map(ProcessHandle::isAlive)).contains(true);
    assertThat(directory).isDirectory();
    cluster = null;
    leftDirectory = directory;
  }

  private static String commandLine(long pid) throws IOException {
    return new String(
            Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
            StandardCharsets.UTF_8)
        .replace('\0', ' ');
  }

  private static String call(LocalNode node, String... command) throws IOException {
    return String.valueOf(node.server().call(Duration.ofSeconds(2), command));
  }
}
