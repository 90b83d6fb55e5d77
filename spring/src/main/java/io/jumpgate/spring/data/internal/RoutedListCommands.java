package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;

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
    try {
      return redis.lpush(key, values);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long rPush(byte[] key, byte[]... values) {
    try {
      return redis.rpush(key, values);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] lPop(byte[] key) {
    try {
      return redis.lpop(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public List<byte[]> lPop(byte[] key, long count) {
    try {
      return redis.lpop(key, count);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] rPop(byte[] key) {
    try {
      return redis.rpop(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public List<byte[]> rPop(byte[] key, long count) {
    try {
      return redis.rpop(key, count);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public List<byte[]> lRange(byte[] key, long start, long end) {
    try {
      return redis.lrange(key, start, end);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long lLen(byte[] key) {
    try {
      return redis.llen(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] lIndex(byte[] key, long index) {
    try {
      return redis.lindex(key, index);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
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
