package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/**
 * Sends a command the driver has no method for to the leader of its key's shard, through the
 * driver's {@code dispatch} (its retries for a command whose effect it does not know: sent again
 * only when it provably did not run). Commands of several keys are first held to the {@link
 * OneShardRule}.
 *
 * <p>Thread-safe and stateless apart from the shared driver view.
 */
final class LeaderDispatch {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final OneShardRule oneShard;

  LeaderDispatch(JumpgateCommands<byte[], byte[]> redis, OneShardRule oneShard) {
    this.redis = redis;
    this.oneShard = oneShard;
  }

  /** Fresh arguments for the byte-array codec. */
  static CommandArgs<byte[], byte[]> arguments() {
    return new CommandArgs<>(ByteArrayCodec.INSTANCE);
  }

  /** Sends to the leader of {@code routingKey}'s shard; the arguments hold every key. */
  <T> T send(
      byte[] routingKey,
      CommandType type,
      CommandOutput<byte[], byte[], T> output,
      CommandArgs<byte[], byte[]> arguments) {
    try {
      return redis.dispatch(routingKey, type, output, arguments);
    } catch (RuntimeException failure) {
      throw ExceptionTranslation.translate(failure);
    }
  }

  /**
   * Checks that every key is on one shard (else refuses, naming the shards), then sends to that
   * shard's leader.
   */
  <T> T sendToOneShard(
      CommandType type,
      CommandOutput<byte[], byte[], T> output,
      CommandArgs<byte[], byte[]> arguments,
      byte[]... keys) {
    oneShard.requireOneShard(type.name(), keys);
    return send(keys[0], type, output, arguments);
  }
}
