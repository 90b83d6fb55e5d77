package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandType;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.connection.ExpirationOptions;
import org.springframework.data.redis.connection.convert.Converters;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

/**
 * Spring Data Redis's key commands on the driver: single-key commands go to the key's shard; DEL,
 * UNLINK, EXISTS and TOUCH are split over the nodes and their counts summed by the driver; KEYS and
 * SCAN walk every leader; RENAME, RENAMENX and COPY run only when both keys share one shard (else
 * {@link org.springframework.dao.InvalidDataAccessApiUsageException} naming the shards, nothing
 * sent). Commands not listed here are refused by {@link UnsupportedKeyCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedKeyCommands extends UnsupportedKeyCommands {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final LeaderDispatch dispatch;

  RoutedKeyCommands(JumpgateCommands<byte[], byte[]> redis, LeaderDispatch dispatch) {
    this.redis = redis;
    this.dispatch = dispatch;
  }

  @Override
  public Long del(byte[]... keys) {
    return translated(() -> redis.del(keys));
  }

  @Override
  public Long unlink(byte[]... keys) {
    return translated(() -> redis.unlink(keys));
  }

  @Override
  public Long exists(byte[]... keys) {
    return translated(() -> redis.exists(keys));
  }

  @Override
  public Long touch(byte[]... keys) {
    return translated(() -> redis.touch(keys));
  }

  @Override
  public Boolean expire(byte[] key, long seconds, ExpirationOptions.Condition condition) {
    if (condition != null && condition != ExpirationOptions.Condition.ALWAYS) {
      return expireWithCondition(CommandType.EXPIRE, key, seconds, condition);
    }
    return translated(() -> redis.expire(key, seconds));
  }

  @Override
  public Boolean pExpire(byte[] key, long millis, ExpirationOptions.Condition condition) {
    if (condition != null && condition != ExpirationOptions.Condition.ALWAYS) {
      return expireWithCondition(CommandType.PEXPIRE, key, millis, condition);
    }
    return translated(() -> redis.pexpire(key, millis));
  }

  @Override
  public Boolean expireAt(byte[] key, long unixTime, ExpirationOptions.Condition condition) {
    if (condition != null && condition != ExpirationOptions.Condition.ALWAYS) {
      return expireWithCondition(CommandType.EXPIREAT, key, unixTime, condition);
    }
    return translated(() -> redis.expireat(key, unixTime));
  }

  @Override
  public Boolean pExpireAt(
      byte[] key, long unixTimeInMillis, ExpirationOptions.Condition condition) {
    return expireWithCondition(CommandType.PEXPIREAT, key, unixTimeInMillis, condition);
  }

  private Boolean expireWithCondition(
      CommandType type, byte[] key, long time, ExpirationOptions.Condition condition) {
    var arguments = LeaderDispatch.arguments().addKey(key).add(time);
    if (condition != null && condition != ExpirationOptions.Condition.ALWAYS) {
      arguments.add(condition.name());
    }
    return dispatch.send(key, type, new BooleanOutput<>(ByteArrayCodec.INSTANCE), arguments);
  }

  @Override
  public Long ttl(byte[] key) {
    return translated(() -> redis.ttl(key));
  }

  @Override
  public Long ttl(byte[] key, TimeUnit timeUnit) {
    return Converters.secondsToTimeUnit(ttl(key), timeUnit);
  }

  @Override
  public Long pTtl(byte[] key) {
    return translated(() -> redis.pttl(key));
  }

  @Override
  public Long pTtl(byte[] key, TimeUnit timeUnit) {
    return Converters.millisecondsToTimeUnit(pTtl(key), timeUnit);
  }

  @Override
  public Boolean persist(byte[] key) {
    return translated(() -> redis.persist(key));
  }

  @Override
  public DataType type(byte[] key) {
    return translated(() -> DataType.fromCode(redis.type(key)));
  }

  @Override
  public Set<byte[]> keys(byte[] pattern) {
    return translated(() -> new LinkedHashSet<>(redis.keys(pattern)));
  }

  @Override
  public Cursor<byte[]> scan(ScanOptions options) {
    return new ClusterKeyScanCursor(redis, options).open();
  }

  @Override
  public void rename(byte[] oldKey, byte[] newKey) {
    var arguments = LeaderDispatch.arguments().addKey(oldKey).addKey(newKey);
    dispatch.sendToOneShard(
        CommandType.RENAME, new StatusOutput<>(ByteArrayCodec.INSTANCE), arguments, oldKey, newKey);
  }

  @Override
  public Boolean renameNX(byte[] oldKey, byte[] newKey) {
    var arguments = LeaderDispatch.arguments().addKey(oldKey).addKey(newKey);
    return dispatch.sendToOneShard(
        CommandType.RENAMENX,
        new BooleanOutput<>(ByteArrayCodec.INSTANCE),
        arguments,
        oldKey,
        newKey);
  }

  @Override
  public Boolean copy(byte[] sourceKey, byte[] targetKey, boolean replace) {
    var arguments = LeaderDispatch.arguments().addKey(sourceKey).addKey(targetKey);
    if (replace) {
      arguments.add("REPLACE");
    }
    return dispatch.sendToOneShard(
        CommandType.COPY,
        new BooleanOutput<>(ByteArrayCodec.INSTANCE),
        arguments,
        sourceKey,
        targetKey);
  }
}
