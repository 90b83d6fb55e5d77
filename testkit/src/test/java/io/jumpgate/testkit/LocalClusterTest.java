package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.testkit.internal.Binaries;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A local cluster started with the builder, against real etcd and redis-server processes. */
class LocalClusterTest {

  private LocalCluster cluster;

  @AfterEach
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void should_list_leaders_and_their_replication_replicas_in_the_map_and_leave_no_process() {
    // Given a cluster of 3 leaders with 1 replica each
    cluster = LocalCluster.builder().nodes(3).replicasPerNode(1).shards(128).cluster("kit").start();

    // Then the map in etcd lists every server at its port
    TopologyAdminState state;
    try (TopologyAdmin admin = cluster.newAdmin()) {
      state = admin.read();
    }
    assertThat(state.cluster()).isEqualTo("kit");
    assertThat(state.metadata().shards()).isEqualTo(128);
    assertThat(state.nodes().keySet())
        .containsExactlyInAnyOrder(
            "leader-0", "leader-1", "leader-2", "replica-0-0", "replica-1-0", "replica-2-0");
    cluster.nodes().forEach((id, node) -> assertThat(state.nodes().get(id)).isEqualTo(node.node()));
    // and every shard is led by a leader, replicated by the server that replicates that leader
    assertThat(state.assignments()).hasSize(128);
    for (ShardAssignment assignment : state.assignments().values()) {
      assertThat(cluster.node(assignment.leader()).role()).isEqualTo(LocalNode.Role.LEADER);
      assertThat(assignment.replicas())
          .containsExactly(cluster.replicasOf(assignment.leader()).get(0).id());
    }
    assertThat(state.leaderCounts().get("leader-0")).isBetween(42, 43);
    // and the replicas really replicate their leader
    assertThat(call(cluster.node("replica-1-0"), Duration.ofSeconds(2), "INFO", "replication"))
        .contains("master_port:" + cluster.node("leader-1").port());

    // When it is closed
    List<Long> pids = new ArrayList<>();
    pids.add(cluster.etcdPid());
    cluster.nodes().values().forEach(node -> pids.add(node.pid()));
    cluster.close();

    // Then no process is left, and neither is the temp dir
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("pid %d alive after close()", pid)
          .isFalse();
    }
    assertThat(pids).hasSize(7).doesNotHaveDuplicates();
    assertThat(Files.exists(cluster.directory())).isFalse();
  }

  @Test
  void should_pause_resume_kill_and_restart_a_node_and_stop_etcd() {
    cluster = LocalCluster.builder().nodes(2).shards(16).start();
    LocalNode node = cluster.node("leader-0");
    assertThat(call(node, Duration.ofSeconds(2), "PING")).isEqualTo("PONG");

    // A paused node answers nothing
    node.pause();
    assertThatThrownBy(() -> call(node, Duration.ofMillis(300), "PING"))
        .hasRootCauseInstanceOf(SocketTimeoutException.class);
    assertThat(node.isRunning()).isTrue();

    // and answers again once resumed
    node.resume();
    assertThat(call(node, Duration.ofSeconds(2), "PING")).isEqualTo("PONG");

    // A killed node is gone; restarted, it answers on the same port with a new process
    long before = node.pid();
    node.kill();
    assertThat(node.isRunning()).isFalse();
    assertThat(ProcessHandle.of(before).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    node.restart();
    assertThat(node.pid()).isNotEqualTo(before);
    assertThat(call(node, Duration.ofSeconds(2), "PING")).isEqualTo("PONG");

    // etcd stops and comes back with the map
    long etcdPid = cluster.etcdPid();
    cluster.stopEtcd();
    assertThat(cluster.etcdRunning()).isFalse();
    assertThat(ProcessHandle.of(etcdPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    cluster.restartEtcd();
    try (TopologyAdmin admin = cluster.newAdmin()) {
      assertThat(admin.read().assignments()).hasSize(16);
    }
  }

  @Test
  void should_reject_a_node_id_that_is_not_there_naming_the_ones_that_are() {
    cluster = LocalCluster.builder().nodes(1).shards(1).start();
    assertThatThrownBy(() -> cluster.node("leader-9"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leader-9")
        .hasMessageContaining("leader-0");
    assertThat(cluster.nodes()).isEqualTo(Map.of("leader-0", cluster.node("leader-0")));
  }

  @Test
  void should_reject_bad_settings_with_the_value() {
    assertThatThrownBy(() -> LocalCluster.builder().nodes(0))
        .hasMessage("nodes must be between 1 and 64, was 0");
    assertThatThrownBy(() -> LocalCluster.builder().cluster("Bad Name"))
        .hasMessageContaining("'Bad Name'");
    assertThatThrownBy(() -> LocalCluster.builder().shards(70_000)).hasMessageContaining("70000");
  }

  @Test
  void should_require_the_acl_user_and_give_it_to_the_client() {
    cluster =
        LocalCluster.builder()
            .nodes(1)
            .replicasPerNode(1)
            .shards(8)
            .redisUser("app", "s3cret")
            .start();
    LocalNode leader = cluster.node("leader-0");
    assertThat(call(leader, Duration.ofSeconds(2), "PING")).startsWith("-NOAUTH");
    try (JumpgateClient client = cluster.newClient()) {
      client.connect().sync().set("greeting", "hello");
      assertThat(client.connect().sync().get("greeting")).isEqualTo("hello");
    }
  }

  @Test
  void should_name_the_package_and_the_install_command_when_a_binary_is_missing() {
    assertThatThrownBy(
            () ->
                Binaries.resolve(
                    LocalServer.Program.ETCD, Map.of("PATH", "/nonexistent"), () -> false))
        .isInstanceOf(LocalClusterException.class)
        .hasMessageContaining("Cannot run etcd: it is not on the PATH (/nonexistent)")
        .hasMessageContaining("sudo apt-get update && sudo apt-get install -y etcd-server");
  }

  private static String call(LocalNode node, Duration timeout, String... command) {
    try {
      Object reply = Resp.call(node.port(), timeout, command);
      return reply instanceof Resp.Error error ? "-" + error.message() : String.valueOf(reply);
    } catch (IOException e) {
      throw new IllegalStateException(node.id() + ": " + e, e);
    }
  }
}
