package io.jumpgate.spring.internal;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Finds the {@code spring.data.redis.*} settings that say where Redis is or how to reach it, which
 * Jumpgate's connection factory does not use (its nodes come from the shard map, its credentials
 * from {@code jumpgate.redis.*}). Reads the environment with Boot's relaxed binding, so {@code
 * SPRING_DATA_REDIS_HOST} counts as {@code spring.data.redis.host}.
 *
 * <p>Stateless and thread-safe.
 */
public final class RedisPropertyConflicts {

  /** The settings reported, in the order they are reported. */
  public static final List<String> CHECKED =
      List.of(
          "spring.data.redis.url",
          "spring.data.redis.host",
          "spring.data.redis.port",
          "spring.data.redis.database",
          "spring.data.redis.username",
          "spring.data.redis.password",
          "spring.data.redis.ssl.enabled",
          "spring.data.redis.cluster.nodes",
          "spring.data.redis.sentinel.master",
          "spring.data.redis.sentinel.nodes");

  private RedisPropertyConflicts() {}

  /** The checked settings that are set in the environment, each as {@code name=value}. */
  public static List<String> find(Environment environment) {
    Binder binder = Binder.get(environment);
    List<String> found = new ArrayList<>();
    for (String name : CHECKED) {
      if (name.endsWith(".nodes")) {
        binder
            .bind(name, Bindable.listOf(String.class))
            .ifBound(nodes -> found.add(name + "=" + String.join(",", nodes)));
      } else {
        binder
            .bind(name, String.class)
            .ifBound(value -> found.add(name + "=" + (name.endsWith("password") ? "***" : value)));
      }
    }
    return found;
  }

  /** The start-up warning for the settings found, or null when there are none. */
  public static String warning(List<String> found) {
    if (found.isEmpty()) {
      return null;
    }
    return "Jumpgate provides the RedisConnectionFactory, so these spring.data.redis settings are"
        + " ignored: "
        + String.join(", ", found)
        + ". Jumpgate reaches the nodes of its shard map (jumpgate.etcd.endpoints or"
        + " jumpgate.topology-file) with jumpgate.redis.* credentials; remove these settings, or"
        + " define a RedisConnectionFactory bean of your own to keep Spring's Lettuce factory";
  }
}
