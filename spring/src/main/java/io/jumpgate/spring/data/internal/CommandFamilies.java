package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.MessageListener;
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

  private final JumpgateClient client;
  private final JumpgateCommands<byte[], byte[]> redis;
  private final JumpgateAsyncCommands<byte[], byte[]> asynchronous;
  private final OneShardRule oneShard;
  private final LeaderDispatch dispatch;
  private final RedisKeyCommands keys;
  private final RedisStringCommands strings;
  private final RedisHashCommands hashes;
  private final RedisListCommands lists;
  private final RedisSetCommands sets;
  private final RedisZSetCommands sortedSets;
  private final RedisServerCommands server;
  private final RedisScriptingCommands scripting;
  private final RedisGeoCommands geo = new UnsupportedGeoCommands() {};
  private final RedisHyperLogLogCommands hyperLogLog = new UnsupportedHyperLogLogCommands() {};
  private final RedisStreamCommands streams = new UnsupportedStreamCommands() {};
  private final AsynchronousStringCommands asynchronousStrings;
  private final AsynchronousHashCommands asynchronousHashes;
  private final AsynchronousKeyCommands asynchronousKeys;
  private final Duration pipelineWait;

  /**
   * @param client the client, for the topology and the connections of transactions
   * @param redis the driver's blocking view with the byte-array codec
   * @param asynchronous the driver's asynchronous view with the byte-array codec, for pipelines
   * @param topology the map in force (the client's {@code topology()}), for the one-shard rule
   * @param pipelineWait how long closing a pipeline waits for its answers at most (longer than a
   *     command's deadline, which ends each command first)
   */
  public CommandFamilies(
      JumpgateClient client,
      JumpgateCommands<byte[], byte[]> redis,
      JumpgateAsyncCommands<byte[], byte[]> asynchronous,
      Supplier<TopologySnapshot> topology,
      Duration pipelineWait) {
    this.client = client;
    this.redis = redis;
    this.asynchronous = asynchronous;
    this.oneShard = new OneShardRule(topology);
    this.asynchronousStrings = new AsynchronousStringCommands(asynchronous);
    this.asynchronousHashes = new AsynchronousHashCommands(asynchronous);
    this.asynchronousKeys = new AsynchronousKeyCommands(asynchronous);
    this.pipelineWait = pipelineWait;
    this.dispatch = new LeaderDispatch(redis, oneShard);
    this.keys = new RoutedKeyCommands(redis, dispatch);
    this.strings = new RoutedStringCommands(redis, dispatch);
    this.hashes = new RoutedHashCommands(redis, dispatch);
    this.lists = new RoutedListCommands(redis, dispatch);
    this.sets = new RoutedSetCommands(redis, dispatch);
    this.sortedSets = new RoutedZSetCommands(redis);
    this.server = new RoutedServerCommands(redis);
    this.scripting = new RoutedScriptingCommands(redis, oneShard);
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

  /** A new subscription for the listener, on no channel yet. */
  RoutedSubscription newSubscription(MessageListener listener) {
    return new RoutedSubscription(client, oneShard, listener);
  }

  /** PUBLISH to the leader of the channel's shard (the channel is hashed as a key). */
  Long publish(byte[] channel, byte[] message) {
    return dispatch.send(
        channel,
        CommandType.PUBLISH,
        new IntegerOutput<>(ByteArrayCodec.INSTANCE),
        LeaderDispatch.arguments().addKey(channel).addValue(message));
  }

  /** A new transaction, on no shard yet. */
  OneShardTransaction newTransaction() {
    return new OneShardTransaction(client, oneShard, asynchronous, pipelineWait);
  }

  /** A new, empty pipeline. */
  Pipeline newPipeline() {
    return new Pipeline(pipelineWait);
  }

  /** The pipelined forms of the families, writing their answers to {@code pipeline}. */
  PipelinedFamilies pipelined(Pipeline pipeline) {
    return new PipelinedFamilies(this, pipeline);
  }

  AsynchronousStringCommands asynchronousStrings() {
    return asynchronousStrings;
  }

  AsynchronousHashCommands asynchronousHashes() {
    return asynchronousHashes;
  }

  AsynchronousKeyCommands asynchronousKeys() {
    return asynchronousKeys;
  }
}
