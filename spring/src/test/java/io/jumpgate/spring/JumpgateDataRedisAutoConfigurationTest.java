package io.jumpgate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spring.data.JumpgateConnectionFactory;
import io.jumpgate.spring.data.JumpgateDataRedisAutoConfiguration;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

class JumpgateDataRedisAutoConfigurationTest {

  @TempDir Path dir;

  private ApplicationContextRunner runner;

  @BeforeEach
  void setUp() {
    Path topologyFile =
        TestTopologyFiles.write(
            dir, 16, List.of(TestTopologyFiles.closedPort(), TestTopologyFiles.closedPort()));
    runner =
        new ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(
                    // listed in the wrong order on purpose: the auto-configuration order decides
                    DataRedisAutoConfiguration.class,
                    JumpgateDataRedisAutoConfiguration.class,
                    JumpgateAutoConfiguration.class))
            .withPropertyValues("jumpgate.topology-file=" + topologyFile);
  }

  @Test
  void should_give_boots_templates_the_jumpgate_factory_instead_of_lettuces() {
    runner.run(
        context -> {
          assertThat(context).hasSingleBean(RedisConnectionFactory.class);
          assertThat(context.getBean("redisConnectionFactory"))
              .isInstanceOf(JumpgateConnectionFactory.class);
          assertThat(context).doesNotHaveBean(LettuceConnectionFactory.class);
          assertThat(context.getBean(StringRedisTemplate.class).getConnectionFactory())
              .isSameAs(context.getBean(RedisConnectionFactory.class));
        });
  }

  @Test
  void should_back_off_when_the_application_defines_its_own_factory() {
    runner
        .withUserConfiguration(OwnFactory.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(RedisConnectionFactory.class);
              assertThat(context).doesNotHaveBean(JumpgateConnectionFactory.class);
              assertThat(context.getBean(RedisConnectionFactory.class))
                  .isSameAs(context.getBean("ownFactory"));
            });
  }

  @Test
  void should_leave_boots_lettuce_factory_when_turned_off() {
    runner
        .withPropertyValues("jumpgate.data-redis.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(JumpgateConnectionFactory.class);
              assertThat(context).hasSingleBean(LettuceConnectionFactory.class);
            });
  }

  @Test
  void should_register_without_the_types_only_spring_data_redis_4_1_has() {
    // Spring Data Redis 3.5 (Spring Boot 3.5) has no SetCondition; the factory serves it too
    runner
        .withClassLoader(
            new FilteredClassLoader("org.springframework.data.redis.connection.SetCondition"))
        .run(
            context ->
                assertThat(context.getBean("redisConnectionFactory"))
                    .isInstanceOf(JumpgateConnectionFactory.class));
  }

  @Test
  void should_back_off_before_spring_data_redis_3_5() {
    // Spring Data Redis 3.4 and older have no ExpirationOptions: their command interfaces differ
    runner
        .withClassLoader(
            new FilteredClassLoader("org.springframework.data.redis.connection.ExpirationOptions"))
        .run(context -> assertThat(context).doesNotHaveBean(JumpgateConnectionFactory.class));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnFactory {
    @Bean
    LettuceConnectionFactory ownFactory() {
      return new LettuceConnectionFactory();
    }
  }
}
