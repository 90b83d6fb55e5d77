package io.jumpgate.spring;

import io.jumpgate.driver.JumpgateClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code jumpgate} health indicator ({@link JumpgateHealthIndicator}) of the application's
 * {@link JumpgateClient} (auto-configured or its own), when Spring Boot's health support (actuator)
 * is on the class path. {@code management.health.jumpgate.enabled=false} turns it off; a bean named
 * {@code jumpgateHealthIndicator} replaces it.
 */
@AutoConfiguration(after = JumpgateAutoConfiguration.class)
@ConditionalOnClass({JumpgateClient.class, HealthIndicator.class})
@ConditionalOnSingleCandidate(JumpgateClient.class)
@ConditionalOnEnabledHealthIndicator("jumpgate")
@EnableConfigurationProperties(JumpgateProperties.class)
public class JumpgateHealthContributorAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "jumpgateHealthIndicator")
  public JumpgateHealthIndicator jumpgateHealthIndicator(
      JumpgateClient client, JumpgateProperties properties) {
    return new JumpgateHealthIndicator(client, properties.getHealth());
  }
}
