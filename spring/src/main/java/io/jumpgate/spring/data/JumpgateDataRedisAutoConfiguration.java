package io.jumpgate.spring.data;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.spring.JumpgateAutoConfiguration;
import io.jumpgate.spring.internal.RedisPropertyConflicts;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Registers a {@link JumpgateConnectionFactory} as the application's {@link RedisConnectionFactory}
 * (bean {@code redisConnectionFactory}) when Spring Data Redis 3.5 or later (Spring Boot 3.5, 4.1)
 * is on the class path and the starter made a {@link JumpgateClient}. It runs before Spring Boot's
 * Redis auto-configuration, so Boot's {@code RedisTemplate} and {@code StringRedisTemplate} are
 * built on it and Boot's Lettuce factory backs off. It backs off itself when the application
 * defines a {@link RedisConnectionFactory}, or with {@code jumpgate.data-redis.enabled=false}.
 *
 * <p>{@code spring.data.redis.*} settings that say where Redis is (host, port, url, cluster,
 * sentinel, credentials) are logged at start-up as a warning naming each one: they are ignored,
 * since the nodes come from the shard map. A warning rather than a failure, because such settings
 * are often left in place (or set by the platform's environment) while an application moves to
 * Jumpgate, and nothing is sent to them.
 */
@AutoConfiguration(
    after = JumpgateAutoConfiguration.class,
    beforeName = {
      // Spring Boot 4.1
      "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.health"
          + ".DataRedisHealthContributorAutoConfiguration",
      // Spring Boot 3.5
      "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
      "org.springframework.boot.autoconfigure.data.redis.RedisReactiveAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.data.redis"
          + ".RedisHealthContributorAutoConfiguration"
    })
@ConditionalOnClass(
    value = RedisConnectionFactory.class,
    // Spring Data Redis 3.5 or later: the command interfaces this factory implements (3.5 added
    // ExpirationOptions; the differences up to 4.1 are covered, docs/spring.md).
    name = "org.springframework.data.redis.connection.ExpirationOptions")
@ConditionalOnBean(JumpgateClient.class)
@ConditionalOnBooleanProperty(name = "jumpgate.data-redis.enabled", matchIfMissing = true)
public class JumpgateDataRedisAutoConfiguration {

  private static final Log LOG = LogFactory.getLog(JumpgateDataRedisAutoConfiguration.class);

  /** The factory on the starter's client; reports the ignored {@code spring.data.redis.*}. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(RedisConnectionFactory.class)
  public JumpgateConnectionFactory redisConnectionFactory(
      JumpgateClient client, Environment environment) {
    List<String> conflicts = RedisPropertyConflicts.find(environment);
    if (!conflicts.isEmpty()) {
      LOG.warn(RedisPropertyConflicts.warning(conflicts));
    }
    return new JumpgateConnectionFactory(client);
  }
}
