package example;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot 4.1 application with only the starter and one jumpgate property: the injected
 * client and commands, the driver's meters in the application's registry, and a jumpgate health
 * entry. The topology comes from a file here (the starter's own integration test uses etcd).
 */
@SpringBootTest(
    properties = {
      "management.endpoint.health.show-details=always",
      // the first PING of a cold JVM on a busy machine may take longer than the default 1 s
      "jumpgate.health.ping-timeout=10s"
    })
class Boot41StarterTest {

  @SpringBootApplication
  static class App {}

  @DynamicPropertySource
  static void jumpgate(DynamicPropertyRegistry registry) {
    registry.add("jumpgate.topology-file", Boot41StarterTest::topologyFile);
  }

  private static String topologyFile() {
    try {
      Path file = Files.createTempFile("topology", ".json");
      file.toFile().deleteOnExit();
      Files.writeString(
          file,
          "{\"format\":1,\"cluster\":\"boot41\",\"revision\":5,\"shards\":4,"
              + "\"routing\":\"xxh64-jump\",\"nodes\":{\"n\":{\"host\":\"127.0.0.1\",\"port\":1}},"
              + "\"assignments\":[{\"shard\":0,\"leader\":\"n\"},{\"shard\":1,\"leader\":\"n\"},"
              + "{\"shard\":2,\"leader\":\"n\"},{\"shard\":3,\"leader\":\"n\"}]}");
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Autowired JumpgateClient client;
  @Autowired JumpgateCommands<String, String> commands;
  @Autowired JumpgateAsyncCommands<String, String> asyncCommands;
  @Autowired MeterRegistry registry;
  @Autowired HealthEndpoint health;

  @Test
  void should_get_the_versions_spring_boot_manages() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.1.");
    assertThat(io.lettuce.core.RedisClient.class.getPackage().getImplementationVersion())
        .startsWith(System.getProperty("expected.lettuce.version"));
    assertThat(io.netty.util.Version.identify().get("netty-common").artifactVersion())
        .isEqualTo(System.getProperty("expected.netty.version"));
  }

  @Test
  void should_inject_the_client_its_commands_its_meters_and_its_health() {
    assertThat(client.topology().revision()).isEqualTo(5);
    assertThat(commands).isNotNull();
    assertThat(asyncCommands).isNotNull();
    assertThat(registry.get("jumpgate.topology.revision").gauge().value()).isEqualTo(5);
    IndicatedHealthDescriptor jumpgate =
        (IndicatedHealthDescriptor) health.healthForPath("jumpgate");
    assertThat(jumpgate).isNotNull();
    // nothing listens on the node's port
    assertThat(jumpgate.getStatus().getCode()).isEqualTo("DOWN");
    assertThat((String) jumpgate.getDetails().get("reason"))
        .contains("have no reachable leader: n did not answer PING");
  }
}
