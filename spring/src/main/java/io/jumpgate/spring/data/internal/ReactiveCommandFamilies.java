package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.jumpgate.spi.TopologySnapshot;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.ReactiveGeoCommands;
import org.springframework.data.redis.connection.ReactiveHashCommands;
import org.springframework.data.redis.connection.ReactiveHyperLogLogCommands;
import org.springframework.data.redis.connection.ReactiveKeyCommands;
import org.springframework.data.redis.connection.ReactiveListCommands;
import org.springframework.data.redis.connection.ReactiveNumberCommands;
import org.springframework.data.redis.connection.ReactivePubSubCommands;
import org.springframework.data.redis.connection.ReactiveScriptingCommands;
import org.springframework.data.redis.connection.ReactiveServerCommands;
import org.springframework.data.redis.connection.ReactiveSetCommands;
import org.springframework.data.redis.connection.ReactiveStreamCommands;
import org.springframework.data.redis.connection.ReactiveStringCommands;
import org.springframework.data.redis.connection.ReactiveZSetCommands;
import reactor.core.publisher.Mono;

/**
 * One instance of each reactive command family, built once per factory on the shared byte-array
 * reactive view of the driver and handed to every reactive connection (they hold no per-connection
 * state). Pub/sub, scripting, geo, HyperLogLog and streams are refused in this version: every
 * command of theirs answers {@link org.springframework.dao.InvalidDataAccessApiUsageException}
 * naming it, nothing sent.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReactiveCommandFamilies {

  private final JumpgateReactiveCommands<byte[], byte[]> redis;
  private final ReactiveKeyCommands keys;
  private final ReactiveStringCommands strings;
  private final ReactiveNumberCommands numbers;
  private final ReactiveHashCommands hashes;
  private final ReactiveListCommands lists;
  private final ReactiveSetCommands sets;
  private final ReactiveZSetCommands sortedSets;
  private final ReactiveServerCommands server;
  private final ReactiveScriptingCommands scripting = new UnsupportedReactiveScriptingCommands() {};
  private final ReactiveGeoCommands geo = new UnsupportedReactiveGeoCommands() {};
  private final ReactiveHyperLogLogCommands hyperLogLog =
      new UnsupportedReactiveHyperLogLogCommands() {};
  private final ReactivePubSubCommands publishSubscribe =
      new UnsupportedReactivePubSubCommands() {};
  private final ReactiveStreamCommands streams = new UnsupportedReactiveStreamCommands() {};

  /**
   * @param redis the driver's reactive view with the byte-array codec
   * @param topology the map in force (the client's {@code topology()}), for the one-shard rule
   */
  public ReactiveCommandFamilies(
      JumpgateReactiveCommands<byte[], byte[]> redis, Supplier<TopologySnapshot> topology) {
    OneShardRule oneShard = new OneShardRule(topology);
    this.redis = redis;
    this.keys = new RoutedReactiveKeyCommands(redis, oneShard);
    this.strings = new RoutedReactiveStringCommands(redis, oneShard);
    this.numbers = new RoutedReactiveNumberCommands(redis);
    this.hashes = new RoutedReactiveHashCommands(redis);
    this.lists = new RoutedReactiveListCommands(redis);
    this.sets = new RoutedReactiveSetCommands(redis);
    this.sortedSets = new RoutedReactiveZSetCommands(redis);
    this.server = new RoutedReactiveServerCommands(redis);
  }

  ReactiveKeyCommands keys() {
    return keys;
  }

  ReactiveStringCommands strings() {
    return strings;
  }

  ReactiveNumberCommands numbers() {
    return numbers;
  }

  ReactiveHashCommands hashes() {
    return hashes;
  }

  ReactiveListCommands lists() {
    return lists;
  }

  ReactiveSetCommands sets() {
    return sets;
  }

  ReactiveZSetCommands sortedSets() {
    return sortedSets;
  }

  ReactiveServerCommands server() {
    return server;
  }

  ReactiveScriptingCommands scripting() {
    return scripting;
  }

  ReactiveGeoCommands geo() {
    return geo;
  }

  ReactiveHyperLogLogCommands hyperLogLog() {
    return hyperLogLog;
  }

  ReactivePubSubCommands publishSubscribe() {
    return publishSubscribe;
  }

  ReactiveStreamCommands streams() {
    return streams;
  }

  /** PING of every node (the driver's broadcast); {@code PONG} when every node answered. */
  Mono<String> ping() {
    return ReactiveConversions.translated(redis.ping().map(replies -> "PONG"));
  }
}
