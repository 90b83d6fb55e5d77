package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdServersTest {

  @TempDir Path dir;

  @Test
  void should_keep_a_quorum_when_a_member_is_killed_and_restart_it_on_its_ports() throws Exception {
    try (EtcdServers etcd = EtcdServers.builder(dir).members(3).start()) {
      assertThat(etcd.endpoints()).hasSize(3).allMatch(url -> url.startsWith("http://127.0.0.1:"));
      etcd.etcdctl("put", "k", "v1").ok();

      EtcdServers.Member member = etcd.member(0);
      String endpoint = member.endpoint();
      member.kill9();
      assertThat(etcd.liveEndpoints()).hasSize(2).doesNotContain(endpoint);
      // the two left elect a leader (if m0 led) and take writes
      BoundedWait.until(
          Duration.ofSeconds(20),
          "the two members left to take a write",
          () -> etcd.etcdctl("put", "k", "v2").exitCode() == 0,
          () -> etcd.member(1).describe(20));

      member.restart();
      assertThat(member.endpoint()).isEqualTo(endpoint);
      assertThat(member.isHealthy()).isTrue();
      assertThat(member.etcdctl("get", "k", "--print-value-only").ok()).isEqualTo("v2");
    }
  }

  @Test
  void should_compact_to_the_current_revision() throws Exception {
    try (EtcdServers etcd = EtcdServers.builder(dir).start()) {
      etcd.etcdctl("put", "k", "v1").ok();
      etcd.etcdctl("put", "k", "v2").ok();
      long revision = etcd.compact();
      assertThat(revision).isGreaterThanOrEqualTo(3);
      CommandResult old = etcd.etcdctl("get", "k", "--rev=2");
      assertThat(old.exitCode()).isNotZero();
      assertThat(old.output()).contains("compacted");
    }
  }

  @Test
  void should_serve_tls_with_client_certificates_and_auth() throws Exception {
    TestCertificates authority = TestCertificates.create(dir.resolve("ca"), "etcd-test-ca");
    try (EtcdServers etcd = EtcdServers.builder(dir).tls(authority, true).start()) {
      assertThat(etcd.endpoints().get(0)).startsWith("https://127.0.0.1:");
      etcd.enableAuth("rootpw", "app", "apppw");
      etcd.etcdctl("put", "k", "v").ok();

      CommandResult wrongPassword = etcd.etcdctl("--user=app:wrong", "get", "k");
      assertThat(wrongPassword.exitCode()).isNotZero();
      assertThat(wrongPassword.output()).contains("authentication failed");
      assertThat(etcd.etcdctl("--user=app:apppw", "get", "k", "--print-value-only").ok())
          .isEqualTo("v");
    }
  }
}
