package io.jumpgate.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/** A bad or conflicting jumpgate.* value stops the start with a message that names the property. */
@ExtendWith(OutputCaptureExtension.class)
class JumpgateBadPropertiesTest {

  @TempDir Path dir;

  private String topologyFile;
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  JumpgateAutoConfiguration.class,
                  JumpgateHealthContributorAutoConfiguration.class));

  @BeforeEach
  void setUp() {
    topologyFile =
        "jumpgate.topology-file="
            + TestTopologyFiles.write(dir, 8, List.of(TestTopologyFiles.closedPort()));
  }

  /** Every message of the failure's cause chain, joined. */
  private static String messages(Throwable failure) {
    List<String> messages = new ArrayList<>();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      messages.add(cause.getClass().getSimpleName() + ": " + cause.getMessage());
    }
    return String.join("\n", messages);
  }

  private void assertStartFails(String expected, String... properties) {
    runner
        .withPropertyValues(properties)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(messages(context.getStartupFailure())).contains(expected);
            });
  }

  @Test
  void should_name_the_property_of_an_unknown_read_policy() {
    assertStartFails("jumpgate.read-policy", topologyFile, "jumpgate.read-policy=nope");
  }

  @Test
  void should_name_the_property_of_a_negative_timeout() {
    assertStartFails(
        "Property jumpgate.timeout with value 'PT-1S' is invalid: must be positive",
        topologyFile,
        "jumpgate.timeout=-1s");
  }

  @Test
  void should_name_the_property_of_a_duration_that_does_not_parse() {
    assertStartFails("jumpgate.connect-timeout", topologyFile, "jumpgate.connect-timeout=soon");
  }

  @Test
  void should_name_both_properties_when_etcd_and_a_topology_file_are_set() {
    runner
        .withPropertyValues(topologyFile, "jumpgate.etcd.endpoints=http://127.0.0.1:2379")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(messages(context.getStartupFailure()))
                  .contains("jumpgate.etcd.endpoints")
                  .contains("jumpgate.topology-file");
            });
  }

  @Test
  void should_name_the_endpoints_property_when_no_topology_source_is_set() {
    assertStartFails(
        "Property jumpgate.etcd.endpoints with value '[]' is invalid: no topology source is"
            + " configured");
  }

  @Test
  void should_name_the_property_of_an_endpoint_that_is_not_a_url() {
    assertStartFails(
        "Property jumpgate.etcd.endpoints with value 'etcd-host' is invalid: endpoint 'etcd-host'",
        "jumpgate.etcd.endpoints=etcd-host");
  }

  @Test
  void should_name_the_property_of_a_cluster_name_that_is_not_allowed() {
    assertStartFails(
        "Property jumpgate.cluster with value 'Prod!' is invalid",
        "jumpgate.etcd.endpoints=http://127.0.0.1:2379",
        "jumpgate.cluster=Prod!");
  }

  @Test
  void should_name_the_property_of_too_many_retry_attempts() {
    assertStartFails(
        "Property jumpgate.retry.max-attempts with value '0' is invalid",
        topologyFile,
        "jumpgate.retry.max-attempts=0");
  }

  @Test
  void should_name_the_property_of_a_backoff_max_below_its_base() {
    assertStartFails(
        "Property jumpgate.retry.backoff.max with value 'PT0.005S' is invalid",
        topologyFile,
        "jumpgate.retry.backoff.base=10ms",
        "jumpgate.retry.backoff.max=5ms");
  }

  @Test
  void should_name_the_missing_redis_password_of_a_redis_user() {
    assertStartFails(
        "Property jumpgate.redis.password with value 'null' is invalid: is required with"
            + " jumpgate.redis.username",
        topologyFile,
        "jumpgate.redis.username=svc");
  }

  @Test
  void should_name_the_missing_etcd_password_of_an_etcd_user() {
    assertStartFails(
        "jumpgate.etcd.password",
        "jumpgate.etcd.endpoints=http://127.0.0.1:2379",
        "jumpgate.etcd.username=app");
  }

  @Test
  void should_name_the_property_of_a_progress_interval_not_below_the_silence_timeout() {
    assertStartFails(
        "Property jumpgate.etcd.progress-interval with value 'PT10S' is invalid",
        "jumpgate.etcd.endpoints=http://127.0.0.1:2379",
        "jumpgate.etcd.progress-interval=10s");
  }

  @Test
  void should_name_the_property_of_a_bad_client_id() {
    assertStartFails(
        "Property jumpgate.client-id with value 'a b' is invalid",
        topologyFile,
        "jumpgate.client-id=a b");
  }

  @Test
  void should_name_the_property_of_a_queue_size_below_one() {
    assertStartFails(
        "Property jumpgate.request-queue-size with value '0' is invalid",
        topologyFile,
        "jumpgate.request-queue-size=0");
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    JumpgateAutoConfiguration.class,
    JumpgateHealthContributorAutoConfiguration.class
  })
  static class Application {}

  @Test
  void should_report_the_property_and_its_origin_when_the_application_fails_to_start(
      CapturedOutput output) {
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThatThrownBy(
            () ->
                application.run(
                    "--" + topologyFile, "--jumpgate.timeout=-1s", "--spring.main.banner-mode=off"))
        .isInstanceOf(RuntimeException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Invalid value '-1s' for configuration property 'jumpgate.timeout'")
        .contains("must be positive");
  }
}
