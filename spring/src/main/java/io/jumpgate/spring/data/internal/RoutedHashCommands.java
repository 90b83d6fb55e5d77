package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;
import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Spring Data Redis's hash commands on the driver, each sent to the hash key's shard (reads as the
 * read policy says). Commands not listed here are refused by {@link UnsupportedHashCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedHashCommands extends UnsupportedHashCommands {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final LeaderDispatch dispatch;

  RoutedHashCommands(JumpgateCommands<byte[], byte[]> redis, LeaderDispatch dispatch) {
    this.redis = redis;
    this.dispatch = dispatch;
  }

  @Override
  public Boolean hSet(byte[] key, byte[] field, byte[] value) {
    return translated(() -> redis.hset(key, field, value));
  }

  @Override
  public Boolean hSetNX(byte[] key, byte[] field, byte[] value) {
    var arguments = LeaderDispatch.arguments().addKey(key).addKey(field).addValue(value);
    return dispatch.send(
        key, CommandType.HSETNX, new BooleanOutput<>(ByteArrayCodec.INSTANCE), arguments);
  }

  @Override
  public void hMSet(byte[] key, Map<byte[], byte[]> hashes) {
    try {
      redis.hset(key, hashes);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] hGet(byte[] key, byte[] field) {
    return translated(() -> redis.hget(key, field));
  }

  @Override
  public List<byte[]> hMGet(byte[] key, byte[]... fields) {
    try {
      List<KeyValue<byte[], byte[]>> answers = redis.hmget(key, fields);
      List<byte[]> values = new ArrayList<>(answers.size());
      for (KeyValue<byte[], byte[]> answer : answers) {
        values.add(answer.getValueOrElse(null));
      }
      return values;
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Map<byte[], byte[]> hGetAll(byte[] key) {
    return translated(() -> redis.hgetall(key));
  }

  @Override
  public Long hDel(byte[] key, byte[]... fields) {
    return translated(() -> redis.hdel(key, fields));
  }

  @Override
  public Boolean hExists(byte[] key, byte[] field) {
    return translated(() -> redis.hexists(key, field));
  }

  @Override
  public Long hIncrBy(byte[] key, byte[] field, long delta) {
    return translated(() -> redis.hincrby(key, field, delta));
  }

  @Override
  public Double hIncrBy(byte[] key, byte[] field, double delta) {
    var arguments = LeaderDispatch.arguments().addKey(key).addKey(field).add(delta);
    return dispatch.send(
        key, CommandType.HINCRBYFLOAT, new DoubleOutput<>(ByteArrayCodec.INSTANCE), arguments);
  }

  @Override
  public Long hLen(byte[] key) {
    return translated(() -> redis.hlen(key));
  }

  @Override
  public Set<byte[]> hKeys(byte[] key) {
    return translated(() -> new LinkedHashSet<>(redis.hkeys(key)));
  }

  @Override
  public List<byte[]> hVals(byte[] key) {
    return translated(() -> redis.hvals(key));
  }
}
