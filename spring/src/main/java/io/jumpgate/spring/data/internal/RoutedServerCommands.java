package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;
import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.FlushMode;
import java.util.Map;
import java.util.Properties;
import org.springframework.data.redis.connection.RedisServerCommands;
import org.springframework.data.redis.connection.convert.Converters;

/**
 * Spring Data Redis's server commands that make sense for a cluster, through the driver's
 * broadcasts: DBSIZE summed over the leaders, FLUSHDB and FLUSHALL on every leader (replicas
 * follow), INFO of every node (which Boot's Redis health indicator reads). Commands of one server
 * (CONFIG, CLIENT, SAVE, SHUTDOWN, REPLICAOF, ...) are refused by {@link
 * UnsupportedServerCommands}: use {@code redis-cli} or {@code jumpgate} on the node.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedServerCommands extends UnsupportedServerCommands {

  private final JumpgateCommands<byte[], byte[]> redis;

  RoutedServerCommands(JumpgateCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Long dbSize() {
    return translated(() -> redis.dbsize());
  }

  @Override
  public void flushDb() {
    try {
      redis.flushdb();
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public void flushDb(RedisServerCommands.FlushOption option) {
    try {
      redis.flushdb(flushMode(option));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public void flushAll() {
    try {
      redis.flushall();
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public void flushAll(RedisServerCommands.FlushOption option) {
    try {
      redis.flushall(flushMode(option));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  /**
   * INFO of every node, leaders and replicas: the first node's (in node id order) entries as they
   * are, so that a check for {@code redis_version} works, and every node's entries again under
   * {@code <node id>.}.
   */
  @Override
  public Properties info() {
    return translated(() -> merged(redis.info()));
  }

  /** INFO of one section on every node; see {@link #info()}. */
  @Override
  public Properties info(String section) {
    return translated(() -> merged(redis.info(section)));
  }

  static Properties merged(Map<String, String> infoByNode) {
    Properties merged = new Properties();
    boolean first = true;
    for (Map.Entry<String, String> node : infoByNode.entrySet()) {
      Properties entries = Converters.toProperties(node.getValue());
      if (first) {
        merged.putAll(entries);
        first = false;
      }
      entries.forEach((name, value) -> merged.put(node.getKey() + "." + name, value));
    }
    return merged;
  }

  static FlushMode flushMode(RedisServerCommands.FlushOption option) {
    return option == RedisServerCommands.FlushOption.ASYNC ? FlushMode.ASYNC : FlushMode.SYNC;
  }
}
