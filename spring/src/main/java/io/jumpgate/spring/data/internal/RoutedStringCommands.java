package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    try {
      return redis.get(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] getDel(byte[] key) {
    try {
      return redis.getdel(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] getEx(byte[] key, Expiration expiration) {
    try {
      return redis.getex(key, Expirations.getExArguments(expiration));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] getSet(byte[] key, byte[] value) {
    try {
      return redis.getset(key, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
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
    try {
      return "OK".equals(redis.set(key, value));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Boolean set(byte[] key, byte[] value, SetCondition condition, Expiration expiration) {
    SetArgs arguments = Expirations.setArguments("SET", condition, expiration);
    try {
      return "OK".equals(redis.set(key, value, arguments));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] setGet(byte[] key, byte[] value, SetCondition condition, Expiration expiration) {
    SetArgs arguments = Expirations.setArguments("SET ... GET", condition, expiration);
    try {
      return redis.setGet(key, value, arguments);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Boolean setNX(byte[] key, byte[] value) {
    try {
      return redis.setnx(key, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Boolean setEx(byte[] key, long seconds, byte[] value) {
    try {
      return "OK".equals(redis.setex(key, seconds, value));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Boolean pSetEx(byte[] key, long milliseconds, byte[] value) {
    try {
      return "OK".equals(redis.set(key, value, SetArgs.Builder.px(milliseconds)));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Boolean mSet(Map<byte[], byte[]> tuple) {
    try {
      return "OK".equals(redis.mset(tuple));
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
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
    try {
      return redis.incr(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long incrBy(byte[] key, long value) {
    try {
      return redis.incrby(key, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Double incrBy(byte[] key, double value) {
    try {
      return redis.incrbyfloat(key, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long decr(byte[] key) {
    try {
      return redis.decr(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long decrBy(byte[] key, long value) {
    try {
      return redis.decrby(key, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public Long append(byte[] key, byte[] value) {
    try {
      return redis.append(key, value);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] getRange(byte[] key, long start, long end) {
    try {
      return redis.getrange(key, start, end);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
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
    try {
      return redis.strlen(key);
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }
}
