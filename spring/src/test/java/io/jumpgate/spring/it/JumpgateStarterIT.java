package io.jumpgate.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Boot web application with the starter, against a real etcd and three real
 * redis-servers on 127.0.0.1: the injected commands route keys to every node, the actuator reports
 * the jumpgate health UP, then DOWN once nodes are stopped, naming them.
 *
 * <p>The application sets nothing for Jumpgate but {@code jumpgate.etcd.endpoints} (the topology is
 * in the default cluster) and, to keep the test short, faster health and etcd timings.
 */
class JumpgateStarterIT {

  private static final Duration HEALTH_WAIT = Duration.ofSeconds(30);

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();

  @Autowired private JumpgateCommands<String, String> redis;
  @Autowired private JumpgateClient client;

  private String base;

  @Test
  void should_serve_keys_through_the_injected_commands_and_report_health_until_the_nodes_stop()
      throws Exception {
    try (LocalNodes nodes = LocalNodes.start("default", 64, 3);
        ConfigurableApplicationContext app = start(nodes)) {
      app.getAutowireCapableBeanFactory().autowireBean(this);
      base = "http://127.0.0.1:" + app.getEnvironment().getRequiredProperty("local.server.port");

      // Keys written through the injected commands are read over HTTP, and the other way round
      for (int index = 0; index < 100; index++) {
        assertThat(redis.set("user:" + index, "name-" + index)).isEqualTo("OK");
      }
      for (int index = 0; index < 100; index++) {
        HttpResponse<String> response = get("/kv/user:" + index);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("name-" + index);
      }
      assertThat(put("/kv/order:1", "paid").statusCode()).isEqualTo(200);
      assertThat(redis.get("order:1")).isEqualTo("paid");
      assertThat(get("/kv/missing").statusCode()).isEqualTo(404);

      // ... and they are spread over the three nodes, on their shards' leaders
      long total = 0;
      for (String node : nodes.redisPorts().keySet()) {
        long size = nodes.dbsize(node);
        assertThat(size).as("keys on %s", node).isPositive();
        total += size;
      }
      assertThat(total).isEqualTo(101);
      assertThat(redis.dbsize()).isEqualTo(101);

      // The health says UP, with the topology's revision, age and shard count
      JsonNode up = health(200);
      JsonNode jumpgate = up.path("components").path("jumpgate");
      assertThat(jumpgate.path("status").asText()).as("%s", up).isEqualTo("UP");
      assertThat(jumpgate.path("details").path("revision").asLong()).isPositive();
      assertThat(jumpgate.path("details").path("shards").asInt()).isEqualTo(64);
      assertThat(jumpgate.path("details").path("leaders").asInt()).isEqualTo(3);
      assertThat(jumpgate.path("details").path("topologyAge").asText()).startsWith("PT");
      assertThat(jumpgate.path("details").path("cluster").asText()).isEqualTo("default");

      // The driver's meters are in the application's registry
      JsonNode commands = metric("jumpgate.commands");
      assertThat(commands.path("measurements").get(0).path("value").asDouble())
          .as("jumpgate.commands count")
          .isGreaterThanOrEqualTo(202);
      assertThat(
              metric("jumpgate.topology.revision")
                  .path("measurements")
                  .get(0)
                  .path("value")
                  .asLong())
          .isEqualTo(jumpgate.path("details").path("revision").asLong());

      // When a leader is stopped, its shards have no reachable leader: DOWN, naming it
      nodes.stopRedis("leader-1");
      JsonNode oneDown = awaitJumpgateDown("leader-1 did not answer PING");
      assertThat(oneDown.path("details").path("reason").asText())
          .matches("\\d+ of 64 shards have no reachable leader: leader-1 did not answer PING");
      assertThat(oneDown.path("details").path("unreachableLeaders").has("leader-1")).isTrue();

      // When every node is stopped, every leader is named
      nodes.stopRedis("leader-0");
      nodes.stopRedis("leader-2");
      awaitJumpgateDown(
          "64 of 64 shards have no reachable leader: leader-0, leader-1, leader-2 did not answer");

      // When etcd is stopped too, the topology grows older than jumpgate.health.max-topology-age
      nodes.stopEtcd();
      awaitJumpgateDown("longer than jumpgate.health.max-topology-age (5000 ms)");
    }
    // Closing the application closed the client
    assertThatThrownBy(() -> client.connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  private static ConfigurableApplicationContext start(LocalNodes nodes) {
    return new SpringApplicationBuilder(DemoApplication.class)
        .properties(
            "server.port=0",
            "server.address=127.0.0.1",
            "spring.main.banner-mode=off",
            "management.endpoints.web.exposure.include=health,metrics",
            "management.endpoint.health.show-details=always",
            "jumpgate.etcd.endpoints=" + nodes.etcdEndpoint(),
            // shorter than the defaults, so that the test does not wait long
            "jumpgate.etcd.request-timeout=2s",
            "jumpgate.etcd.progress-interval=500ms",
            "jumpgate.health.ping-interval=500ms",
            "jumpgate.health.max-topology-age=5s")
        .run();
  }

  private JsonNode awaitJumpgateDown(String reason) {
    JsonNode[] jumpgate = new JsonNode[1];
    await("the jumpgate health to be DOWN with a reason containing '" + reason + "'")
        .atMost(HEALTH_WAIT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              JsonNode health = health(503);
              jumpgate[0] = health.path("components").path("jumpgate");
              assertThat(jumpgate[0].path("status").asText()).as("%s", health).isEqualTo("DOWN");
              assertThat(jumpgate[0].path("details").path("reason").asText()).contains(reason);
            });
    return jumpgate[0];
  }

  private JsonNode health(int expectedStatus) throws Exception {
    HttpResponse<String> response = get("/actuator/health");
    assertThat(response.statusCode())
        .as("/actuator/health: %s", response.body())
        .isEqualTo(expectedStatus);
    return json.readTree(response.body());
  }

  private JsonNode metric(String name) throws Exception {
    HttpResponse<String> response = get("/actuator/metrics/" + name);
    assertThat(response.statusCode())
        .as("/actuator/metrics/%s: %s", name, response.body())
        .isEqualTo(200);
    return json.readTree(response.body());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> put(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "text/plain")
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
