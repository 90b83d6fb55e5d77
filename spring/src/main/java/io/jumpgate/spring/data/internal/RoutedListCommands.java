package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.CommandType;
import java.util.List;
import org.springframework.data.redis.connection.RedisListCommands;

/**
 * Spring Data Redis's list commands on the driver, each sent to the list key's shard; RPOPLPUSH and
 * LMOVE run only when both keys share one shard. Commands not listed here are refused by {@link
 * UnsupportedListCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedListCommands extends UnsupportedListCommands {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final LeaderDispatch dispatch;

  RoutedListCommands(JumpgateCommands<byte[], byte[]> redis, LeaderDispatch dispatch) {
    this.redis = redis;
    this.dispatch = dispatch;
  }

  @Override
  public Long lPush(byte[] key, byte[]... values) {
    return translated(() -> redis.lpush(key, values));
  }

  @Override
  public Long rPush(byte[] key, byte[]... values) {
    return translated(() -> redis.rpush(key, values));
  }

  @Override
  public byte[] lPop(byte[] key) {
    return translated(() -> redis.lpop(key));
  }

  @Override
  public List<byte[]> lPop(byte[] key, long count) {
    return translated(() -> redis.lpop(key, count));
  }

  @Override
  public byte[] rPop(byte[] key) {
    return translated(() -> redis.rpop(key));
  }

  @Override
  public List<byte[]> rPop(byte[] key, long count) {
    return translated(() -> redis.rpop(key, count));
  }

  @Override
  public List<byte[]> lRange(byte[] key, long start, long end) {
    return translated(() -> redis.lrange(key, start, end));
  }

  @Override
  public Long lLen(byte[] key) {
    return translated(() -> redis.llen(key));
  }

  @Override
  public byte[] lIndex(byte[] key, long index) {
    return translated(() -> redis.lindex(key, index));
  }

  @Override
  public byte[] rPopLPush(byte[] srcKey, byte[] dstKey) {
    var arguments = LeaderDispatch.arguments().addKey(srcKey).addKey(dstKey);
    return dispatch.sendToOneShard(
        CommandType.RPOPLPUSH,
        new ValueOutput<>(ByteArrayCodec.INSTANCE),
        arguments,
        srcKey,
        dstKey);
  }

  @Override
  public byte[] lMove(
      byte[] sourceKey,
      byte[] destinationKey,
      RedisListCommands.Direction from,
      RedisListCommands.Direction to) {
    var arguments =
        LeaderDispatch.arguments()
            .addKey(sourceKey)
            .addKey(destinationKey)
            .add(from.name())
            .add(to.name());
    return dispatch.sendToOneShard(
        CommandType.LMOVE,
        new ValueOutput<>(ByteArrayCodec.INSTANCE),
        arguments,
        sourceKey,
        destinationKey);
  }
}
