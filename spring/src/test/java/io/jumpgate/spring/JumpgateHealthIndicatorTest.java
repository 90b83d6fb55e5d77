package io.jumpgate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** When the jumpgate health indicator is configured, and what it says of an unreachable cluster. */
class JumpgateHealthIndicatorTest {

  @TempDir Path dir;

  private ApplicationContextRunner runner;

  @BeforeEach
  void setUp() {
    Path topologyFile =
        TestTopologyFiles.write(
            dir, 8, List.of(TestTopologyFiles.closedPort(), TestTopologyFiles.closedPort()));
    runner =
        new ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(
                    JumpgateAutoConfiguration.class,
                    JumpgateHealthContributorAutoConfiguration.class))
            .withPropertyValues(
                "jumpgate.topology-file=" + topologyFile,
                "jumpgate.timeout=500ms",
                "jumpgate.connect-timeout=200ms",
                "jumpgate.health.ping-timeout=5s");
  }

  @Test
  void should_be_down_naming_the_leaders_that_cannot_be_reached() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          Health health =
              context.getBean("jumpgateHealthIndicator", HealthIndicator.class).health();
          assertThat(health.getStatus()).isEqualTo(Status.DOWN);
          Map<String, Object> details = health.getDetails();
          assertThat((String) details.get("reason"))
              .isEqualTo(
                  "8 of 8 shards have no reachable leader: node-0, node-1 did not answer PING");
          assertThat(details)
              .containsEntry("revision", 7L)
              .containsEntry("shards", 8)
              .containsEntry("leaders", 2)
              .containsKey("topologyAge")
              .containsKey("unreachableLeaders");
        });
  }

  @Test
  void should_report_the_topology_only_when_leaders_are_not_checked() {
    runner
        .withPropertyValues("jumpgate.health.check-leaders=false")
        .run(
            context -> {
              Health health = context.getBean(JumpgateHealthIndicator.class).health();
              assertThat(health.getStatus()).isEqualTo(Status.UP);
              assertThat(health.getDetails())
                  .containsEntry("revision", 7L)
                  .containsEntry("shards", 8)
                  .containsEntry("cluster", "test");
            });
  }

  @Test
  void should_not_be_configured_when_the_jumpgate_indicator_is_disabled() {
    runner
        .withPropertyValues("management.health.jumpgate.enabled=false")
        .run(
            context -> {
              assertThat(context).hasSingleBean(JumpgateClient.class);
              assertThat(context).doesNotHaveBean(JumpgateHealthIndicator.class);
            });
  }

  @Test
  void should_not_be_configured_when_default_indicators_are_disabled() {
    runner
        .withPropertyValues("management.health.defaults.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(JumpgateHealthIndicator.class));
  }

  @Test
  void should_not_be_configured_without_spring_boot_health_on_the_class_path() {
    runner
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(JumpgateClient.class);
              assertThat(context).doesNotHaveBean("jumpgateHealthIndicator");
            });
  }

  @Test
  void should_keep_the_applications_own_indicator() {
    runner
        .withUserConfiguration(OwnIndicator.class)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(JumpgateHealthIndicator.class);
              assertThat(context.getBean("jumpgateHealthIndicator", HealthIndicator.class).health())
                  .isEqualTo(Health.up().withDetail("own", true).build());
            });
  }

  @Test
  void should_not_be_configured_without_a_client() {
    runner
        .withPropertyValues("jumpgate.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("jumpgateHealthIndicator"));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnIndicator {
    @Bean
    HealthIndicator jumpgateHealthIndicator() {
      return () -> Health.up().withDetail("own", true).build();
    }
  }
}
