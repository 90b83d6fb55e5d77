package example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.testkit.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter in a Spring Boot 3.5 application that raised Netty to 4.2 and Lettuce to 7: the
 * client, the command beans, the metrics and the jumpgate health (through Boot 3's health API),
 * against a real etcd and redis-server (jumpgate-testkit).
 */
@ExtendWith(OutputCaptureExtension.class)
class Boot35StarterTest {

  @SpringBootApplication
  static class App {}

  @TempDir Path dir;

  private Path topology(int port) throws IOException {
    Path file = dir.resolve("topology.json");
    StringBuilder assignments = new StringBuilder();
    for (int shard = 0; shard < 8; shard++) {
      assignments
          .append(shard == 0 ? "" : ",")
          .append("{\"shard\":")
          .append(shard)
          .append(",\"leader\":\"node-0\",\"replicas\":[],\"epoch\":1}");
    }
    Files.writeString(
        file,
        "{\"format\":1,\"cluster\":\"boot35\",\"revision\":3,\"shards\":8,\"routing\":\"xxh64-jump\","
            + "\"nodes\":{\"node-0\":{\"host\":\"127.0.0.1\",\"port\":"
            + port
            + "}},"
            + "\"assignments\":["
            + assignments
            + "]}");
    return file;
  }

  private ConfigurableApplicationContext run(String... args) {
    SpringApplication application = new SpringApplication(App.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    return application.run(args);
  }

  @Test
  void should_run_on_the_spring_boot_3_5_line_with_the_raised_netty_and_lettuce() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    assertThat(io.netty.util.Version.identify().get("netty-common").artifactVersion())
        .isEqualTo(System.getProperty("expected.netty.version"));
    assertThat(io.lettuce.core.RedisClient.class.getPackage().getImplementationVersion())
        .startsWith(System.getProperty("expected.lettuce.version"));
  }

  @Test
  void should_round_trip_keys_and_report_health_up_then_down_when_the_node_stops()
      throws Exception {
    try (LocalCluster cluster =
            LocalCluster.builder().nodes(1).shards(8).cluster("boot35").start();
        ConfigurableApplicationContext context =
            run(
                "--jumpgate.etcd.endpoints=" + cluster.etcdEndpoint(),
                "--jumpgate.cluster=" + cluster.cluster(),
                "--jumpgate.health.ping-interval=1ms",
                "--management.endpoint.health.show-details=always")) {
      long revision = context.getBean(JumpgateClient.class).topology().revision();
      assertThat(revision).isPositive();
      @SuppressWarnings("unchecked")
      JumpgateCommands<String, String> commands = context.getBean(JumpgateCommands.class);
      for (int index = 0; index < 50; index++) {
        assertThat(commands.set("key:" + index, "value-" + index)).isEqualTo("OK");
      }
      for (int index = 0; index < 50; index++) {
        assertThat(commands.get("key:" + index)).isEqualTo("value-" + index);
      }
      MeterRegistry registry = context.getBean(MeterRegistry.class);
      assertThat(registry.get("jumpgate.topology.revision").gauge().value()).isEqualTo(revision);
      assertThat(registry.get("jumpgate.commands").tag("command", "SET").timer().count())
          .isEqualTo(50);

      HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
      Health up = (Health) endpoint.healthForPath("jumpgate");
      assertThat(up.getStatus()).isEqualTo(Status.UP);
      assertThat(up.getDetails()).containsEntry("revision", revision).containsEntry("shards", 8);
      assertThat(context.getBean("jumpgateHealthIndicator")).isInstanceOf(HealthIndicator.class);

      cluster.node("leader-0").kill();
      // the next PING round (the last one's answers stand while it is in flight) finds it down
      Awaitility.await("the jumpgate health to be DOWN")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(50))
          .untilAsserted(
              () -> {
                Health down = (Health) endpoint.healthForPath("jumpgate");
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat((String) down.getDetails().get("reason"))
                    .isEqualTo(
                        "8 of 8 shards have no reachable leader: leader-0 did not answer PING");
              });
      assertThatThrownBy(() -> commands.get("key:1")).isInstanceOf(NodeUnavailableException.class);
    }
  }

  @Test
  void should_leave_the_health_out_when_it_is_disabled() throws Exception {
    try (ConfigurableApplicationContext context =
        run(
            "--jumpgate.topology-file=" + topology(1),
            "--management.health.jumpgate.enabled=false")) {
      assertThat(context.getBean(JumpgateClient.class).topology().revision()).isEqualTo(3);
      assertThat(context.containsBean("jumpgateHealthIndicator")).isFalse();
      assertThat(context.getBean(HealthEndpoint.class).healthForPath("jumpgate")).isNull();
    }
  }

  @Test
  void should_name_a_bad_property_when_the_start_fails(CapturedOutput output) throws Exception {
    Path file = topology(1);
    assertThatThrownBy(() -> run("--jumpgate.topology-file=" + file, "--jumpgate.timeout=-1s"))
        .isInstanceOf(RuntimeException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Invalid value '-1s' for configuration property 'jumpgate.timeout'");
  }

  @Test
  void should_keep_the_client_view_types_for_injection() throws Exception {
    try (ConfigurableApplicationContext context = run("--jumpgate.topology-file=" + topology(1))) {
      Map<String, JumpgateCommands> views = context.getBeansOfType(JumpgateCommands.class);
      assertThat(views).containsOnlyKeys("jumpgateCommands");
    }
  }
}
