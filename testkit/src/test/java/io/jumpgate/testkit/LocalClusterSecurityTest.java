package io.jumpgate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.topology.TopologyAdmin;
import org.junit.jupiter.api.Test;

class LocalClusterSecurityTest {

  @Test
  void should_start_with_etcd_auth_and_tls_and_connect_the_client_it_builds() {
    try (LocalCluster cluster =
            LocalCluster.builder()
                .nodes(2)
                .shards(16)
                .etcdUser("jumpgate", "s3cret")
                .etcdTls(true)
                .start();
        JumpgateClient client = cluster.newClient()) {
      assertThat(cluster.etcdEndpoint()).startsWith("https://127.0.0.1:");
      assertThat(cluster.certificates()).isPresent();
      assertThat(cluster.etcdOptions().username()).contains("jumpgate");
      client.connect().sync().set("greeting", "hello");
      assertThat(client.connect().sync().get("greeting")).isEqualTo("hello");

      // etcd really checks the password: the same options with another one are refused.
      assertThatThrownBy(
              () -> {
                try (TopologyAdmin admin =
                    TopologyAdmin.create(
                        cluster.etcdOptions().mutate().credentials("jumpgate", "wrong").build())) {
                  admin.read();
                }
              })
          .hasMessageContaining("auth");
    }
  }

  @Test
  void should_compact_etcd_and_keep_serving() {
    try (LocalCluster cluster = LocalCluster.builder().nodes(1).shards(4).start();
        JumpgateClient client = cluster.newClient()) {
      assertThat(cluster.compactEtcd()).isPositive();
      client.connect().sync().set("k", "v");
      assertThat(client.connect().sync().get("k")).isEqualTo("v");
    }
  }
}
