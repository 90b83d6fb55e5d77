package io.jumpgate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.spring.internal.JumpgateOptionsFactory;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyKeys;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Binding of every jumpgate.* property to the driver's options, the defaults and the metadata. */
class JumpgatePropertiesTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class);

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(JumpgateProperties.class)
  static class PropertiesOnly {}

  private static JumpgateOptions options(JumpgateProperties properties) {
    return JumpgateOptionsFactory.create(properties, Stream.empty());
  }

  @Test
  void should_bind_every_etcd_and_driver_property_to_the_options() {
    runner
        .withPropertyValues(
            "jumpgate.etcd.endpoints=http://10.0.0.1:2379, https://10.0.0.2:2379",
            "jumpgate.etcd.username=app",
            "jumpgate.etcd.password=secret",
            "jumpgate.etcd.tls.ca-certificate=/etc/jumpgate/etcd-ca.pem",
            "jumpgate.etcd.tls.client-certificate=/etc/jumpgate/client.pem",
            "jumpgate.etcd.tls.client-key=/etc/jumpgate/client.key",
            "jumpgate.etcd.request-timeout=7s",
            "jumpgate.etcd.progress-interval=3s",
            "jumpgate.etcd.silence-timeout=12s",
            "jumpgate.etcd.retry-backoff.min=50ms",
            "jumpgate.etcd.retry-backoff.max=4s",
            "jumpgate.etcd.expected-shards=1024",
            "jumpgate.cluster=prod",
            "jumpgate.read-policy=replica-preferred",
            "jumpgate.zone=az1",
            "jumpgate.timeout=1500ms",
            "jumpgate.connect-timeout=750ms",
            "jumpgate.start-timeout=20s",
            "jumpgate.retry.max-attempts=5",
            "jumpgate.retry.backoff.base=20ms",
            "jumpgate.retry.backoff.max=300ms",
            "jumpgate.retry.topology-wait=1s",
            "jumpgate.retry.accept-second-run-replies=true",
            "jumpgate.fan-out-grouping=by-shard",
            "jumpgate.request-queue-size=500",
            "jumpgate.freeze.max-requests=50",
            "jumpgate.freeze.max-wait=250ms",
            "jumpgate.redis.connection-names=false",
            "jumpgate.redis.write-coalescing=true",
            "jumpgate.warm-up=true",
            "jumpgate.redis.username=svc",
            "jumpgate.redis.password=redis-secret",
            "jumpgate.redis.tls.enabled=true",
            "jumpgate.redis.tls.ca-certificate=/etc/jumpgate/redis-ca.pem",
            "jumpgate.client-id=checkout-7",
            "jumpgate.registration.enabled=false")
        .run(
            context -> {
              JumpgateOptions options = options(context.getBean(JumpgateProperties.class));
              EtcdTopologyOptions etcd = options.etcd().orElseThrow();
              assertThat(etcd.endpoints())
                  .containsExactly(
                      URI.create("http://10.0.0.1:2379"), URI.create("https://10.0.0.2:2379"));
              assertThat(etcd.cluster()).isEqualTo("prod");
              assertThat(etcd.username()).contains("app");
              assertThat(etcd.password()).contains("secret");
              assertThat(etcd.caCertificate()).contains(Path.of("/etc/jumpgate/etcd-ca.pem"));
              assertThat(etcd.clientCertificate()).contains(Path.of("/etc/jumpgate/client.pem"));
              assertThat(etcd.clientKey()).contains(Path.of("/etc/jumpgate/client.key"));
              assertThat(etcd.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
              assertThat(etcd.progressInterval()).isEqualTo(Duration.ofSeconds(3));
              assertThat(etcd.silenceTimeout()).isEqualTo(Duration.ofSeconds(12));
              assertThat(etcd.retryBackoffMin()).isEqualTo(Duration.ofMillis(50));
              assertThat(etcd.retryBackoffMax()).isEqualTo(Duration.ofSeconds(4));
              assertThat(etcd.expectedShards()).isEqualTo(1024);
              assertThat(etcd.startTimeout()).isEqualTo(Duration.ofSeconds(20));
              assertThat(options.readPolicy()).isEqualTo(ReadPolicy.REPLICA_PREFERRED);
              assertThat(options.zone()).contains("az1");
              assertThat(options.commandTimeout()).isEqualTo(Duration.ofMillis(1500));
              assertThat(options.connectTimeout()).isEqualTo(Duration.ofMillis(750));
              assertThat(options.startTimeout()).isEqualTo(Duration.ofSeconds(20));
              assertThat(options.retry().maxAttempts()).isEqualTo(5);
              assertThat(options.retry().backoffBase()).isEqualTo(Duration.ofMillis(20));
              assertThat(options.retry().backoffMax()).isEqualTo(Duration.ofMillis(300));
              assertThat(options.retry().topologyWait()).isEqualTo(Duration.ofSeconds(1));
              assertThat(options.retry().acceptSecondRunReplies()).isTrue();
              assertThat(options.fanOutGrouping()).isEqualTo(FanOutGrouping.BY_SHARD);
              assertThat(options.requestQueueSize()).isEqualTo(500);
              assertThat(options.freezeMaxRequests()).isEqualTo(50);
              assertThat(options.freezeMaxWait()).isEqualTo(Duration.ofMillis(250));
              assertThat(options.connectionNames()).isFalse();
              assertThat(options.writeCoalescing()).isTrue();
              assertThat(options.warmUp()).isTrue();
              assertThat(options.redisUsername()).contains("svc");
              assertThat(options.redisPassword()).contains("redis-secret");
              assertThat(options.redisTls()).isTrue();
              assertThat(options.redisCaCertificate())
                  .contains(Path.of("/etc/jumpgate/redis-ca.pem"));
              assertThat(options.clientId()).contains("checkout-7");
              assertThat(options.registration()).isFalse();
              assertThat(options.toString()).doesNotContain("secret");
            });
  }

  @Test
  void should_bind_endpoints_given_as_a_yaml_style_list() {
    runner
        .withPropertyValues(
            "jumpgate.etcd.endpoints[0]=http://127.0.0.1:2379",
            "jumpgate.etcd.endpoints[1]=http://127.0.0.1:2380")
        .run(
            context -> {
              JumpgateOptions options = options(context.getBean(JumpgateProperties.class));
              assertThat(options.etcd().orElseThrow().endpoints()).hasSize(2);
              // registration is on by default with etcd
              assertThat(options.registration()).isTrue();
              assertThat(options.etcd().orElseThrow().cluster())
                  .isEqualTo(TopologyKeys.DEFAULT_CLUSTER);
            });
  }

  @Test
  void should_use_the_password_of_the_default_redis_user_without_a_username() {
    runner
        .withPropertyValues(
            "jumpgate.topology-file=/tmp/topology.json", "jumpgate.redis.password=pw")
        .run(
            context -> {
              JumpgateOptions options = options(context.getBean(JumpgateProperties.class));
              assertThat(options.redisUsername()).isEmpty();
              assertThat(options.redisPassword()).contains("pw");
              assertThat(options.etcd()).isEmpty();
              assertThat(options.registration()).isFalse();
            });
  }

  @Test
  void should_default_to_the_drivers_own_defaults() {
    JumpgateProperties properties = new JumpgateProperties();
    properties.setTopologyFile(Path.of("/tmp/topology.json"));
    JumpgateOptions options = options(properties);
    JumpgateOptions driver = JumpgateOptions.builder().topologyFile(Path.of("/tmp/x")).build();
    assertThat(options.readPolicy()).isEqualTo(driver.readPolicy());
    assertThat(options.commandTimeout()).isEqualTo(JumpgateOptions.DEFAULT_COMMAND_TIMEOUT);
    assertThat(options.connectTimeout()).isEqualTo(JumpgateOptions.DEFAULT_CONNECT_TIMEOUT);
    assertThat(options.startTimeout()).isEqualTo(JumpgateOptions.DEFAULT_START_TIMEOUT);
    assertThat(options.requestQueueSize()).isEqualTo(JumpgateOptions.DEFAULT_REQUEST_QUEUE_SIZE);
    assertThat(options.freezeMaxRequests()).isEqualTo(JumpgateOptions.DEFAULT_FREEZE_MAX_REQUESTS);
    assertThat(options.freezeMaxWait()).isEqualTo(JumpgateOptions.DEFAULT_FREEZE_MAX_WAIT);
    assertThat(options.connectionNames()).isTrue();
    assertThat(options.writeCoalescing()).isTrue().isEqualTo(driver.writeCoalescing());
    assertThat(options.fanOutGrouping()).isEqualTo(driver.fanOutGrouping());
    assertThat(options.warmUp()).isEqualTo(driver.warmUp());
    assertThat(options.redisTls()).isEqualTo(driver.redisTls());
    RetryOptions retry = options.retry();
    assertThat(retry.maxAttempts()).isEqualTo(RetryOptions.DEFAULT_MAX_ATTEMPTS);
    assertThat(retry.backoffBase()).isEqualTo(RetryOptions.DEFAULT_BACKOFF_BASE);
    assertThat(retry.backoffMax()).isEqualTo(RetryOptions.DEFAULT_BACKOFF_MAX);
    assertThat(retry.topologyWait()).isEqualTo(RetryOptions.DEFAULT_TOPOLOGY_WAIT);
    assertThat(retry.acceptSecondRunReplies())
        .isEqualTo(RetryOptions.DEFAULT_ACCEPT_SECOND_RUN_REPLIES);

    JumpgateProperties.Etcd etcd = properties.getEtcd();
    assertThat(properties.getCluster()).isEqualTo(TopologyKeys.DEFAULT_CLUSTER);
    assertThat(etcd.getRequestTimeout()).isEqualTo(EtcdTopologyOptions.DEFAULT_REQUEST_TIMEOUT);
    assertThat(etcd.getProgressInterval()).isEqualTo(EtcdTopologyOptions.DEFAULT_PROGRESS_INTERVAL);
    assertThat(etcd.getSilenceTimeout()).isEqualTo(EtcdTopologyOptions.DEFAULT_SILENCE_TIMEOUT);
    assertThat(etcd.getRetryBackoff().getMin())
        .isEqualTo(EtcdTopologyOptions.DEFAULT_RETRY_BACKOFF_MIN);
    assertThat(etcd.getRetryBackoff().getMax())
        .isEqualTo(EtcdTopologyOptions.DEFAULT_RETRY_BACKOFF_MAX);
    assertThat(properties.getStartTimeout()).isEqualTo(EtcdTopologyOptions.DEFAULT_START_TIMEOUT);
  }

  @Test
  void should_describe_every_property_with_its_default_in_the_generated_metadata()
      throws Exception {
    JsonNode metadata;
    try (InputStream in =
        getClass()
            .getClassLoader()
            .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated META-INF/spring-configuration-metadata.json").isNotNull();
      metadata = new ObjectMapper().readTree(in);
    }
    Map<String, JsonNode> byName = new HashMap<>();
    metadata
        .get("properties")
        .forEach(property -> byName.put(property.get("name").asText(), property));
    for (JsonNode property : byName.values()) {
      assertThat(property.path("description").asText())
          .as("description of %s", property.get("name"))
          .isNotBlank();
    }
    Map<String, String> defaults =
        Map.ofEntries(
            Map.entry("jumpgate.cluster", "default"),
            Map.entry("jumpgate.read-policy", "leader"),
            Map.entry("jumpgate.timeout", "2s"),
            Map.entry("jumpgate.connect-timeout", "2s"),
            Map.entry("jumpgate.start-timeout", "10s"),
            Map.entry("jumpgate.retry.max-attempts", "3"),
            Map.entry("jumpgate.retry.backoff.base", "10ms"),
            Map.entry("jumpgate.retry.backoff.max", "200ms"),
            Map.entry("jumpgate.retry.topology-wait", "500ms"),
            Map.entry("jumpgate.retry.accept-second-run-replies", "false"),
            Map.entry("jumpgate.fan-out-grouping", "by-node"),
            Map.entry("jumpgate.request-queue-size", "10000"),
            Map.entry("jumpgate.freeze.max-requests", "1000"),
            Map.entry("jumpgate.freeze.max-wait", "5s"),
            Map.entry("jumpgate.redis.connection-names", "true"),
            Map.entry("jumpgate.redis.write-coalescing", "true"),
            Map.entry("jumpgate.warm-up", "false"),
            Map.entry("jumpgate.redis.tls.enabled", "false"),
            Map.entry("jumpgate.registration.enabled", "true"),
            Map.entry("jumpgate.metrics.enabled", "true"),
            Map.entry("jumpgate.etcd.request-timeout", "5s"),
            Map.entry("jumpgate.health.max-topology-age", "30s"),
            Map.entry("jumpgate.health.ping-timeout", "1s"),
            Map.entry("jumpgate.health.ping-interval", "5s"));
    defaults.forEach(
        (name, value) -> {
          assertThat(byName).as("metadata of %s", name).containsKey(name);
          assertThat(byName.get(name).path("defaultValue").asText())
              .as("default of %s", name)
              .isEqualTo(value);
        });
    for (String name :
        List.of(
            "jumpgate.etcd.endpoints",
            "jumpgate.etcd.username",
            "jumpgate.etcd.password",
            "jumpgate.etcd.tls.ca-certificate",
            "jumpgate.etcd.tls.client-certificate",
            "jumpgate.etcd.tls.client-key",
            "jumpgate.topology-file",
            "jumpgate.redis.username",
            "jumpgate.redis.password",
            "jumpgate.redis.tls.ca-certificate",
            "jumpgate.zone",
            "jumpgate.client-id")) {
      assertThat(byName).as("metadata of %s", name).containsKey(name);
    }
  }
}
