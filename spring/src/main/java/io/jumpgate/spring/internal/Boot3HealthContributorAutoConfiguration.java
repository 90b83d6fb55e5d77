package io.jumpgate.spring.internal;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.spring.JumpgateAutoConfiguration;
import io.jumpgate.spring.JumpgateProperties;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The {@code jumpgate} health indicator on Spring Boot 3.5 (see {@link
 * Boot3HealthIndicatorFactoryBean}); on Spring Boot 4 {@code
 * JumpgateHealthContributorAutoConfiguration} does it, and this one never applies (Boot 3's {@code
 * HealthIndicator} is not on a Boot 4 class path). Same conditions: one {@code JumpgateClient},
 * {@code management.health.jumpgate.enabled} (else {@code management.health.defaults.enabled}) not
 * false, no bean named {@code jumpgateHealthIndicator}.
 */
@AutoConfiguration(after = JumpgateAutoConfiguration.class)
@ConditionalOnClass(
    name = {Boot3HealthIndicatorFactoryBean.INDICATOR, "io.jumpgate.driver.JumpgateClient"})
@ConditionalOnSingleCandidate(JumpgateClient.class)
@Conditional(Boot3HealthContributorAutoConfiguration.IndicatorEnabled.class)
@EnableConfigurationProperties(JumpgateProperties.class)
public class Boot3HealthContributorAutoConfiguration {

  /**
   * Static, with providers: the container makes a factory bean early, only to learn its type, and
   * that must not create the client (a cycle while the client's own properties are bound).
   */
  @Bean
  @ConditionalOnMissingBean(name = "jumpgateHealthIndicator")
  public static Boot3HealthIndicatorFactoryBean jumpgateHealthIndicator(
      ObjectProvider<JumpgateClient> client, ObjectProvider<JumpgateProperties> properties) {
    return new Boot3HealthIndicatorFactoryBean(
        () ->
            HealthCheck.of(
                client.getObject(),
                HealthCheck.Settings.from(properties.getObject().getHealth()),
                Clock.systemUTC()));
  }

  /** Boot's rule for one health indicator: its own switch, else the defaults' switch. */
  static final class IndicatorEnabled extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(
        ConditionContext context, AnnotatedTypeMetadata metadata) {
      Environment environment = context.getEnvironment();
      Boolean own = environment.getProperty("management.health.jumpgate.enabled", Boolean.class);
      if (own != null) {
        return new ConditionOutcome(own, "management.health.jumpgate.enabled is " + own);
      }
      boolean defaults =
          environment.getProperty("management.health.defaults.enabled", Boolean.class, true);
      return new ConditionOutcome(defaults, "management.health.defaults.enabled is " + defaults);
    }
  }
}
