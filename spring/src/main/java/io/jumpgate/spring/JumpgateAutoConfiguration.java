package io.jumpgate.spring;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.driver.JumpgateReactiveCommands;
import io.jumpgate.spring.internal.DependencyCheck;
import io.jumpgate.spring.internal.JumpgateOptionsFactory;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Auto-configures a {@link JumpgateClient} from the {@code jumpgate.*} properties ({@link
 * JumpgateProperties}), and its String key and value view with its blocking, asynchronous and
 * reactive command sets. Each bean backs off when the application defines its own of that type.
 *
 * <p>The client is created when the context starts (it waits for the first valid topology, at most
 * {@code jumpgate.start-timeout}) and closed when the context closes: new commands are refused,
 * those in flight end (at most the command timeout), then connections and the topology source
 * close. When the application has a Micrometer {@code MeterRegistry}, the driver's meters are
 * recorded there ({@code jumpgate.metrics.enabled=false} to not). {@link JumpgateClientCustomizer}
 * beans change the options after the properties. {@code jumpgate.enabled=false} turns all of this
 * off.
 */
@AutoConfiguration
@ConditionalOnClass(JumpgateClient.class)
@ConditionalOnBooleanProperty(name = "jumpgate.enabled", matchIfMissing = true)
@EnableConfigurationProperties(JumpgateProperties.class)
public class JumpgateAutoConfiguration implements BeanClassLoaderAware {

  private ClassLoader classLoader = JumpgateAutoConfiguration.class.getClassLoader();

  @Override
  public void setBeanClassLoader(ClassLoader classLoader) {
    this.classLoader = classLoader;
  }

  /** The client, closed gracefully with the context. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public JumpgateClient jumpgateClient(
      JumpgateProperties properties, ObjectProvider<JumpgateClientCustomizer> customizers) {
    DependencyCheck.requireSupportedDependencies(classLoader);
    return JumpgateClient.create(
        JumpgateOptionsFactory.create(properties, customizers.orderedStream()));
  }

  /** The client's view with String keys and values (UTF-8). */
  @Bean
  @ConditionalOnMissingBean
  public JumpgateConnection<String, String> jumpgateConnection(JumpgateClient client) {
    return client.connect();
  }

  /** Blocking commands of {@link #jumpgateConnection}. */
  @Bean
  @ConditionalOnMissingBean
  public JumpgateCommands<String, String> jumpgateCommands(
      JumpgateConnection<String, String> connection) {
    return connection.sync();
  }

  /** Asynchronous commands ({@code CompletionStage}) of {@link #jumpgateConnection}. */
  @Bean
  @ConditionalOnMissingBean
  public JumpgateAsyncCommands<String, String> jumpgateAsyncCommands(
      JumpgateConnection<String, String> connection) {
    return connection.async();
  }

  /** Reactive commands (Project Reactor) of {@link #jumpgateConnection}. */
  @Bean
  @ConditionalOnMissingBean
  public JumpgateReactiveCommands<String, String> jumpgateReactiveCommands(
      JumpgateConnection<String, String> connection) {
    return connection.reactive();
  }

  /** Binds the driver's meters to the application's MeterRegistry, when there is one. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  @ConditionalOnBooleanProperty(name = "jumpgate.metrics.enabled", matchIfMissing = true)
  static class MetricsConfiguration {

    /** Runs before the application's customizers, so that one of them can still change it. */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    JumpgateClientCustomizer jumpgateMeterRegistryCustomizer(
        ObjectProvider<MeterRegistry> registries) {
      return options -> {
        MeterRegistry registry = registries.getIfUnique();
        if (registry != null) {
          options.meterRegistry(registry);
        }
      };
    }
  }
}
