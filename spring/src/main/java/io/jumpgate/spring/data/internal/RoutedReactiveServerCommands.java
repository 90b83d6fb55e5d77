package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ReactiveConversions.translated;

import io.jumpgate.driver.JumpgateReactiveCommands;
import java.util.Properties;
import org.springframework.data.redis.connection.RedisServerCommands;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's reactive server commands that make sense for a cluster, through the driver's
 * broadcasts, each sent when subscribed: DBSIZE summed over the leaders, FLUSHDB and FLUSHALL on
 * every leader, INFO of every node (merged as {@link RoutedServerCommands#info()} does). Commands
 * of one server (CONFIG, CLIENT, SAVE, TIME, ...) are refused by {@link
 * UnsupportedReactiveServerCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedReactiveServerCommands extends UnsupportedReactiveServerCommands {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;

  RoutedReactiveServerCommands(JumpgateReactiveCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  @Override
  public Mono<Long> dbSize() {
    return translated(redis.dbsize());
  }

  @Override
  public Mono<String> flushDb() {
    return translated(redis.flushdb());
  }

  @Override
  public Mono<String> flushDb(RedisServerCommands.FlushOption option) {
    return translated(redis.flushdb(RoutedServerCommands.flushMode(option)));
  }

  @Override
  public Mono<String> flushAll() {
    return translated(redis.flushall());
  }

  @Override
  public Mono<String> flushAll(RedisServerCommands.FlushOption option) {
    return translated(redis.flushall(RoutedServerCommands.flushMode(option)));
  }

  @Override
  public Mono<Properties> info() {
    return translated(redis.info().map(RoutedServerCommands::merged));
  }

  @Override
  public Mono<Properties> info(String section) {
    return translated(redis.info(section).map(RoutedServerCommands::merged));
  }
}
