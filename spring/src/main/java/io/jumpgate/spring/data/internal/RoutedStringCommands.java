package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;
import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Spring Data Redis's string commands on the driver: single-key commands go to the key's shard with
 * the driver's retries and read policy; MGET and MSET are split over the nodes and merged by the
 * driver; MSETNX runs only when its keys share one shard. Commands not listed here are refused by
 * {@link UnsupportedStringCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedStringCommands extends UnsupportedStringCommands {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final LeaderDispatch dispatch;

  RoutedStringCommands(JumpgateCommands<byte[], byte[]> redis, LeaderDispatch dispatch) {
    this.redis = redis;
    this.dispatch = dispatch;
  }

  @Override
  public byte[] get(byte[] key) {
    return translated(() -> redis.get(key));
  }

  @Override
  public byte[] getDel(byte[] key) {
    return translated(() -> redis.getdel(key));
  }

  @Override
  public byte[] getEx(byte[] key, Expiration expiration) {
    return translated(() -> redis.getex(key, Expirations.getExArguments(expiration)));
  }

  @Override
  public byte[] getSet(byte[] key, byte[] value) {
    return translated(() -> redis.getset(key, value));
  }

  @Override
  public List<byte[]> mGet(byte[]... keys) {
    try {
      List<KeyValue<byte[], byte[]>> answers = redis.mget(keys);
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
  public Boolean set(byte[] key, byte[] value) {
    return translated(() -> "OK".equals(redis.set(key, value)));
  }

  @Override
  public Boolean set(byte[] key, byte[] value, SetCondition condition, Expiration expiration) {
    SetArgs arguments = Expirations.setArguments("SET", condition, expiration);
    return translated(() -> "OK".equals(redis.set(key, value, arguments)));
  }

  @Override
  public byte[] setGet(byte[] key, byte[] value, SetCondition condition, Expiration expiration) {
    SetArgs arguments = Expirations.setArguments("SET ... GET", condition, expiration);
    return translated(() -> redis.setGet(key, value, arguments));
  }

  /**
   * SET with NX/XX and an expiry: abstract in Spring Data Redis 3.5 (and 4.0), which its templates
   * call; a deprecated default in 4.1, which would convert it to a {@link SetCondition} (a class
   * 3.5 does not have). Implemented here without that class so it runs on both lines.
   */
  @Override
  @SuppressWarnings("deprecation")
  public Boolean set(byte[] key, byte[] value, Expiration expiration, SetOption option) {
    SetArgs arguments = Expirations.setArguments(option, expiration);
    return translated(() -> "OK".equals(redis.set(key, value, arguments)));
  }

  /**
   * SET ... GET in the form of Spring Data Redis 3.5 (see {@link #set(byte[], byte[], Expiration,
   * SetOption)}).
   */
  @Override
  @SuppressWarnings("deprecation")
  public byte[] setGet(byte[] key, byte[] value, Expiration expiration, SetOption option) {
    SetArgs arguments = Expirations.setArguments(option, expiration);
    return translated(() -> redis.setGet(key, value, arguments));
  }

  @Override
  public Boolean setNX(byte[] key, byte[] value) {
    return translated(() -> redis.setnx(key, value));
  }

  @Override
  public Boolean setEx(byte[] key, long seconds, byte[] value) {
    return translated(() -> "OK".equals(redis.setex(key, seconds, value)));
  }

  @Override
  public Boolean pSetEx(byte[] key, long milliseconds, byte[] value) {
    return translated(() -> "OK".equals(redis.set(key, value, SetArgs.Builder.px(milliseconds))));
  }

  @Override
  public Boolean mSet(Map<byte[], byte[]> tuple) {
    return translated(() -> "OK".equals(redis.mset(tuple)));
  }

  @Override
  public Boolean mSetNX(Map<byte[], byte[]> tuple) {
    byte[][] keys = tuple.keySet().toArray(new byte[0][]);
    var arguments = LeaderDispatch.arguments();
    tuple.forEach((key, value) -> arguments.addKey(key).addValue(value));
    return dispatch.sendToOneShard(
        CommandType.MSETNX, new BooleanOutput<>(ByteArrayCodec.INSTANCE), arguments, keys);
  }

  @Override
  public Long incr(byte[] key) {
    return translated(() -> redis.incr(key));
  }

  @Override
  public Long incrBy(byte[] key, long value) {
    return translated(() -> redis.incrby(key, value));
  }

  @Override
  public Double incrBy(byte[] key, double value) {
    return translated(() -> redis.incrbyfloat(key, value));
  }

  @Override
  public Long decr(byte[] key) {
    return translated(() -> redis.decr(key));
  }

  @Override
  public Long decrBy(byte[] key, long value) {
    return translated(() -> redis.decrby(key, value));
  }

  @Override
  public Long append(byte[] key, byte[] value) {
    return translated(() -> redis.append(key, value));
  }

  @Override
  public byte[] getRange(byte[] key, long start, long end) {
    return translated(() -> redis.getrange(key, start, end));
  }

  @Override
  public void setRange(byte[] key, byte[] value, long offset) {
    try {
      redis.setrange(key, offset, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long strLen(byte[] key) {
    return translated(() -> redis.strlen(key));
  }
}
