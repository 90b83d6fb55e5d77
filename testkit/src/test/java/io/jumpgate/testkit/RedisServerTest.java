package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisServerTest {

  @TempDir Path dir;

  @Test
  void should_replicate_pause_kill_and_restart_on_the_same_port() throws Exception {
    try (RedisServer leader = RedisServer.builder(dir).start();
        RedisServer replica = RedisServer.builder(dir).replicaOf(leader.port()).start()) {
      assertThat(leader.call("SET", "k", "v")).isEqualTo("OK");
      BoundedWait.until(
          Duration.ofSeconds(10),
          "the replica to have k",
          () -> "v".equals(replica.call("GET", "k")),
          () -> replica.describe(20));

      leader.pause();
      assertThat(leader.isPaused()).isTrue();
      assertThatThrownBy(() -> leader.call(Duration.ofMillis(300), "PING"))
          .isInstanceOf(SocketTimeoutException.class);
      leader.resume();
      assertThat(leader.call("PING")).isEqualTo("PONG");

      int port = leader.port();
      long pid = leader.pid();
      leader.kill9();
      assertThat(leader.isRunning()).isFalse();
      leader.restart();
      assertThat(leader.pid()).isNotEqualTo(pid);
      assertThat(leader.port()).isEqualTo(port);
      assertThat(leader.starts()).isEqualTo(2);
      assertThat(leader.call("GET", "k")).as("no persistence: a restart comes back empty").isNull();
    }
  }

  @Test
  void should_require_the_acl_user_and_log_in_with_it() throws Exception {
    try (RedisServer server = RedisServer.builder(dir).user("app", "s3cret").start()) {
      assertThat(server.call("ACL", "WHOAMI")).isEqualTo("app");
      Object anonymous = Resp.call(server.port(), Duration.ofSeconds(2), "PING");
      assertThat(anonymous).isInstanceOf(Resp.Error.class);
      assertThat(((Resp.Error) anonymous).message()).startsWith("NOAUTH");
    }
  }

  @Test
  void should_serve_tls_only_with_a_tls_setting() throws Exception {
    TestCertificates authority = TestCertificates.create(dir.resolve("ca"), "redis-test-ca");
    try (RedisServer server =
        RedisServer.builder(dir).tls(new RedisServer.Tls(authority, true)).start()) {
      assertThat(server.call("PING")).isEqualTo("PONG");
      assertThatThrownBy(() -> Resp.call(server.port(), Duration.ofMillis(500), "PING"))
          .as("a plain client on the TLS port")
          .isInstanceOf(java.io.IOException.class);
    }
  }

  @Test
  void should_fail_with_the_log_when_the_server_exits_while_starting() {
    RedisServer broken = RedisServer.builder(dir).config("--no-such-option", "x").build();
    try (broken) {
      assertThatThrownBy(broken::start)
          .isInstanceOf(LocalClusterException.class)
          .hasMessageContaining("exited while starting")
          .hasMessageContaining("no-such-option");
    }
  }
}
