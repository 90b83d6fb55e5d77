package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.spi.TopologySnapshot;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.RedisGeoCommands;
import org.springframework.data.redis.connection.RedisHashCommands;
import org.springframework.data.redis.connection.RedisHyperLogLogCommands;
import org.springframework.data.redis.connection.RedisKeyCommands;
import org.springframework.data.redis.connection.RedisListCommands;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.connection.RedisServerCommands;
import org.springframework.data.redis.connection.RedisSetCommands;
import org.springframework.data.redis.connection.RedisStreamCommands;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.connection.RedisZSetCommands;

/**
 * One instance of each command family, built once per factory on the shared byte-array view of the
 * driver and handed to every connection (they hold no per-connection state).
 *
 * <p>Immutable and thread-safe.
 */
public final class CommandFamilies {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final RedisKeyCommands keys;
  private final RedisStringCommands strings;
  private final RedisHashCommands hashes;
  private final RedisListCommands lists;
  private final RedisSetCommands sets;
  private final RedisZSetCommands sortedSets;
  private final RedisServerCommands server;
  private final RedisScriptingCommands scripting = new UnsupportedScriptingCommands() {};
  private final RedisGeoCommands geo = new UnsupportedGeoCommands() {};
  private final RedisHyperLogLogCommands hyperLogLog = new UnsupportedHyperLogLogCommands() {};
  private final RedisStreamCommands streams = new UnsupportedStreamCommands() {};

  /**
   * @param redis the driver's blocking view with the byte-array codec
   * @param topology the map in force (the client's {@code topology()}), for the one-shard rule
   */
  public CommandFamilies(
      JumpgateCommands<byte[], byte[]> redis, Supplier<TopologySnapshot> topology) {
    this.redis = redis;
    LeaderDispatch dispatch = new LeaderDispatch(redis, new OneShardRule(topology));
    this.keys = new RoutedKeyCommands(redis, dispatch);
    this.strings = new RoutedStringCommands(redis, dispatch);
    this.hashes = new RoutedHashCommands(redis, dispatch);
    this.lists = new RoutedListCommands(redis, dispatch);
    this.sets = new RoutedSetCommands(redis, dispatch);
    this.sortedSets = new RoutedZSetCommands(redis);
    this.server = new RoutedServerCommands(redis);
  }

  JumpgateCommands<byte[], byte[]> driver() {
    return redis;
  }

  RedisKeyCommands keys() {
    return keys;
  }

  RedisStringCommands strings() {
    return strings;
  }

  RedisHashCommands hashes() {
    return hashes;
  }

  RedisListCommands lists() {
    return lists;
  }

  RedisSetCommands sets() {
    return sets;
  }

  RedisZSetCommands sortedSets() {
    return sortedSets;
  }

  RedisServerCommands server() {
    return server;
  }

  RedisScriptingCommands scripting() {
    return scripting;
  }

  RedisGeoCommands geo() {
    return geo;
  }

  RedisHyperLogLogCommands hyperLogLog() {
    return hyperLogLog;
  }

  RedisStreamCommands streams() {
    return streams;
  }
}
