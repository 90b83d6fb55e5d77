package io.jumpgate.spring.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

class RedisPropertyConflictsTest {

  @Test
  void should_find_nothing_when_no_redis_location_is_set() {
    MockEnvironment environment =
        new MockEnvironment().withProperty("spring.data.redis.timeout", "2s");
    assertThat(RedisPropertyConflicts.find(environment)).isEmpty();
    assertThat(RedisPropertyConflicts.warning(RedisPropertyConflicts.find(environment))).isNull();
  }

  @Test
  void should_name_each_setting_hiding_the_password_and_joining_node_lists() {
    MockEnvironment environment =
        new MockEnvironment()
            .withProperty("spring.data.redis.host", "redis.example")
            .withProperty("spring.data.redis.password", "secret")
            .withProperty("spring.data.redis.cluster.nodes[0]", "a:6379")
            .withProperty("spring.data.redis.cluster.nodes[1]", "b:6379");
    assertThat(RedisPropertyConflicts.find(environment))
        .containsExactly(
            "spring.data.redis.host=redis.example",
            "spring.data.redis.password=***",
            "spring.data.redis.cluster.nodes=a:6379,b:6379");
    assertThat(RedisPropertyConflicts.warning(RedisPropertyConflicts.find(environment)))
        .contains("are ignored: spring.data.redis.host=redis.example, ")
        .doesNotContain("secret");
  }

  @Test
  void should_find_a_setting_given_as_an_environment_variable() {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    environment
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("SPRING_DATA_REDIS_SENTINEL_MASTER", "mymaster")));
    environment.getPropertySources().addLast(new MapPropertySource("other", Map.of()));
    assertThat(RedisPropertyConflicts.find(environment))
        .containsExactly("spring.data.redis.sentinel.master=mymaster");
  }
}
