package io.jumpgate.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.JumpgateReactiveCommands;
import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.spring.data.JumpgateDataRedisAutoConfiguration;
import io.jumpgate.spring.internal.Boot3HealthContributorAutoConfiguration;
import io.jumpgate.spring.internal.Boot3HealthIndicatorFactoryBean;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** The auto-configuration's conditions, beans, customizers, metrics and lifecycle. */
class JumpgateAutoConfigurationTest {

  @TempDir Path dir;

  private Path topologyFile;
  private ApplicationContextRunner runner;

  @BeforeEach
  void setUp() {
    topologyFile =
        TestTopologyFiles.write(
            dir, 16, List.of(TestTopologyFiles.closedPort(), TestTopologyFiles.closedPort()));
    runner =
        new ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(
                    JumpgateAutoConfiguration.class,
                    JumpgateHealthContributorAutoConfiguration.class));
  }

  private ApplicationContextRunner withTopologyFile() {
    return runner.withPropertyValues("jumpgate.topology-file=" + topologyFile);
  }

  @Test
  void should_create_the_client_and_its_string_views_from_a_topology_file() {
    withTopologyFile()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(JumpgateClient.class);
              assertThat(context).hasSingleBean(JumpgateConnection.class);
              assertThat(context).hasSingleBean(JumpgateCommands.class);
              assertThat(context).hasSingleBean(JumpgateAsyncCommands.class);
              assertThat(context).hasSingleBean(JumpgateReactiveCommands.class);
              assertThat(context).hasSingleBean(JumpgateHealthIndicator.class);
              JumpgateClient client = context.getBean(JumpgateClient.class);
              assertThat(client.topology().shardCount()).isEqualTo(16);
              assertThat(client.topology().revision()).isEqualTo(7);
              assertThat(client.options().topologyDescription()).contains(topologyFile.toString());
              assertThat(client.options().registration()).isFalse();
            });
  }

  @Test
  void should_register_every_auto_configuration_and_only_the_boot_4_health_indicator_on_boot_4() {
    List<String> names = new ArrayList<>();
    ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
        .forEach(
            name -> {
              if (name.startsWith("io.jumpgate.")) {
                names.add(name);
              }
            });
    assertThat(names)
        .containsExactly(
            JumpgateAutoConfiguration.class.getName(),
            JumpgateHealthContributorAutoConfiguration.class.getName(),
            Boot3HealthContributorAutoConfiguration.class.getName(),
            JumpgateDataRedisAutoConfiguration.class.getName());
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                names.stream().map(JumpgateAutoConfigurationTest::load).toArray(Class<?>[]::new)))
        .withPropertyValues("jumpgate.topology-file=" + topologyFile)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(JumpgateHealthIndicator.class);
              assertThat(context).doesNotHaveBean(Boot3HealthIndicatorFactoryBean.class);
              assertThat(context).doesNotHaveBean(Boot3HealthContributorAutoConfiguration.class);
            });
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void should_configure_nothing_when_jumpgate_is_disabled() {
    withTopologyFile()
        .withPropertyValues("jumpgate.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(JumpgateClient.class);
              assertThat(context).doesNotHaveBean(JumpgateCommands.class);
              assertThat(context).doesNotHaveBean(JumpgateHealthIndicator.class);
            });
  }

  @Test
  void should_configure_nothing_without_the_driver_on_the_class_path() {
    withTopologyFile()
        .withClassLoader(new FilteredClassLoader(JumpgateClient.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean("jumpgateClient");
              assertThat(context).doesNotHaveBean("jumpgateHealthIndicator");
            });
  }

  @Test
  void should_use_the_applications_own_client_and_build_the_views_on_it() {
    runner
        .withUserConfiguration(OwnClientConfiguration.class)
        .withPropertyValues("own.topology-file=" + topologyFile)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(JumpgateClient.class);
              assertThat(context)
                  .getBean("ownClient")
                  .isSameAs(context.getBean(JumpgateClient.class));
              assertThat(context.getBean(JumpgateClient.class).options().readPolicy())
                  .isEqualTo(ReadPolicy.ANY);
              assertThat(context).hasSingleBean(JumpgateCommands.class);
              // the health indicator follows the application's client too
              assertThat(context).hasSingleBean(JumpgateHealthIndicator.class);
            });
  }

  @Test
  void should_keep_the_applications_own_command_views() {
    withTopologyFile()
        .withUserConfiguration(OwnCommandsConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(JumpgateCommands.class);
              assertThat(context)
                  .getBean("ownCommands")
                  .isSameAs(context.getBean(JumpgateCommands.class));
              assertThat(context).hasSingleBean(JumpgateAsyncCommands.class);
              assertThat(context)
                  .getBean("ownAsyncCommands")
                  .isSameAs(context.getBean(JumpgateAsyncCommands.class));
            });
  }

  @Test
  void should_keep_the_string_connection_next_to_a_byte_array_connection_of_the_application() {
    withTopologyFile()
        .withUserConfiguration(BytesConnectionConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBeansOfType(JumpgateConnection.class))
                  .containsOnlyKeys("bytesConnection", "jumpgateConnection");
              assertThat(context).hasSingleBean(JumpgateCommands.class);
            });
  }

  @Test
  void should_apply_customizers_in_order_after_the_properties() {
    withTopologyFile()
        .withPropertyValues("jumpgate.read-policy=leader", "jumpgate.timeout=3s")
        .withUserConfiguration(CustomizerConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              JumpgateOptions options = context.getBean(JumpgateClient.class).options();
              // the customizers saw the properties applied, then overrode one
              assertThat(context.getBean(CustomizerConfiguration.class).seen)
                  .containsExactly("first saw LEADER", "second");
              assertThat(options.readPolicy()).isEqualTo(ReadPolicy.REPLICA_PREFERRED);
              assertThat(options.commandTimeout()).isEqualTo(Duration.ofSeconds(3));
            });
  }

  @Test
  void should_record_the_drivers_meters_in_the_applications_registry() {
    withTopologyFile()
        .withUserConfiguration(RegistryConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(context.getBean(JumpgateClient.class).options().meterRegistry())
                  .containsSame(registry);
              assertThat(registry.get("jumpgate.topology.revision").gauge().value()).isEqualTo(7);
            });
  }

  @Test
  void should_not_record_meters_when_metrics_are_disabled() {
    withTopologyFile()
        .withPropertyValues("jumpgate.metrics.enabled=false")
        .withUserConfiguration(RegistryConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(JumpgateClient.class).options().meterRegistry()).isEmpty();
              assertThat(
                      context
                          .getBean(MeterRegistry.class)
                          .find("jumpgate.topology.revision")
                          .gauge())
                  .isNull();
            });
  }

  @Test
  void should_start_without_micrometer_on_the_class_path() {
    withTopologyFile()
        .withClassLoader(new FilteredClassLoader("io.micrometer"))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(JumpgateClient.class).options().meterRegistry()).isEmpty();
            });
  }

  @Test
  void should_close_the_client_when_the_context_closes() {
    AtomicReference<JumpgateClient> client = new AtomicReference<>();
    withTopologyFile().run(context -> client.set(context.getBean(JumpgateClient.class)));
    assertThatThrownBy(() -> client.get().connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnClientConfiguration {
    @Bean(destroyMethod = "close")
    JumpgateClient ownClient(org.springframework.core.env.Environment environment) {
      return JumpgateClient.create(
          JumpgateOptions.builder()
              .topologyFile(Path.of(environment.getRequiredProperty("own.topology-file")))
              .readPolicy(ReadPolicy.ANY)
              .build());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnCommandsConfiguration {
    @Bean
    JumpgateCommands<String, String> ownCommands(JumpgateClient client) {
      return client.connect().sync();
    }

    @Bean
    JumpgateAsyncCommands<String, String> ownAsyncCommands(JumpgateClient client) {
      return client.connect().async();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class BytesConnectionConfiguration {
    @Bean
    JumpgateConnection<byte[], byte[]> bytesConnection(JumpgateClient client) {
      return client.connect(ByteArrayCodec.INSTANCE);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class CustomizerConfiguration {
    final List<String> seen = new ArrayList<>();

    @Bean
    @Order(2)
    JumpgateClientCustomizer second() {
      return options -> {
        seen.add("second");
        options.readPolicy(ReadPolicy.REPLICA_PREFERRED);
      };
    }

    @Bean
    @Order(1)
    JumpgateClientCustomizer first() {
      return options -> seen.add("first saw " + options.build().readPolicy());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class RegistryConfiguration {
    @Bean
    SimpleMeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }
}
