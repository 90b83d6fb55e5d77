package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.types.Expiration;

/**
 * The string commands a pipeline sends without waiting: the same names, parameters and answers as
 * {@link RoutedStringCommands}, on the driver's asynchronous view (see {@link PipelinedFamily}).
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class AsynchronousStringCommands {

  private final JumpgateAsyncCommands<byte[], byte[]> redis;

  AsynchronousStringCommands(JumpgateAsyncCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  CompletionStage<byte[]> get(byte[] key) {
    return redis.get(key);
  }

  CompletionStage<byte[]> getDel(byte[] key) {
    return redis.getdel(key);
  }

  CompletionStage<byte[]> getSet(byte[] key, byte[] value) {
    return redis.getset(key, value);
  }

  CompletionStage<List<byte[]>> mGet(byte[]... keys) {
    return redis
        .mget(keys)
        .thenApply(
            answers -> {
              List<byte[]> values = new ArrayList<>(answers.size());
              for (KeyValue<byte[], byte[]> answer : answers) {
                values.add(answer.getValueOrElse(null));
              }
              return values;
            });
  }

  CompletionStage<Boolean> set(byte[] key, byte[] value) {
    return redis.set(key, value).thenApply("OK"::equals);
  }

  CompletionStage<Boolean> set(
      byte[] key, byte[] value, SetCondition condition, Expiration expiration) {
    SetArgs arguments = Expirations.setArguments("SET", condition, expiration);
    return redis.set(key, value, arguments).thenApply("OK"::equals);
  }

  /** SET with NX/XX and an expiry as Spring Data Redis 3.5 calls it (3.5 has no SetCondition). */
  @SuppressWarnings("deprecation")
  CompletionStage<Boolean> set(byte[] key, byte[] value, Expiration expiration, SetOption option) {
    SetArgs arguments = Expirations.setArguments(option, expiration);
    return redis.set(key, value, arguments).thenApply("OK"::equals);
  }

  CompletionStage<Boolean> setNX(byte[] key, byte[] value) {
    return redis.setnx(key, value);
  }

  CompletionStage<Boolean> setEx(byte[] key, long seconds, byte[] value) {
    return redis.setex(key, seconds, value).thenApply("OK"::equals);
  }

  CompletionStage<Boolean> mSet(Map<byte[], byte[]> tuple) {
    return redis.mset(tuple).thenApply("OK"::equals);
  }

  CompletionStage<Long> incr(byte[] key) {
    return redis.incr(key);
  }

  CompletionStage<Long> incrBy(byte[] key, long value) {
    return redis.incrby(key, value);
  }

  CompletionStage<Double> incrBy(byte[] key, double value) {
    return redis.incrbyfloat(key, value);
  }

  CompletionStage<Long> decr(byte[] key) {
    return redis.decr(key);
  }

  CompletionStage<Long> decrBy(byte[] key, long value) {
    return redis.decrby(key, value);
  }

  CompletionStage<Long> append(byte[] key, byte[] value) {
    return redis.append(key, value);
  }

  CompletionStage<byte[]> getRange(byte[] key, long start, long end) {
    return redis.getrange(key, start, end);
  }

  CompletionStage<Long> strLen(byte[] key) {
    return redis.strlen(key);
  }
}
