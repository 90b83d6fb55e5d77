package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateAsyncCommands;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The hash commands a pipeline sends without waiting: the same names, parameters and answers as
 * {@link RoutedHashCommands}, on the driver's asynchronous view (see {@link PipelinedFamily}).
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class AsynchronousHashCommands {

  private final JumpgateAsyncCommands<byte[], byte[]> redis;

  AsynchronousHashCommands(JumpgateAsyncCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  CompletionStage<Boolean> hSet(byte[] key, byte[] field, byte[] value) {
    return redis.hset(key, field, value);
  }

  CompletionStage<byte[]> hGet(byte[] key, byte[] field) {
    return redis.hget(key, field);
  }

  CompletionStage<Map<byte[], byte[]>> hGetAll(byte[] key) {
    return redis.hgetall(key);
  }

  CompletionStage<Long> hDel(byte[] key, byte[]... fields) {
    return redis.hdel(key, fields);
  }

  CompletionStage<Boolean> hExists(byte[] key, byte[] field) {
    return redis.hexists(key, field);
  }

  CompletionStage<Long> hIncrBy(byte[] key, byte[] field, long delta) {
    return redis.hincrby(key, field, delta);
  }

  CompletionStage<Long> hLen(byte[] key) {
    return redis.hlen(key);
  }

  CompletionStage<Set<byte[]>> hKeys(byte[] key) {
    return redis.hkeys(key).thenApply(LinkedHashSet::new);
  }

  CompletionStage<List<byte[]>> hVals(byte[] key) {
    return redis.hvals(key);
  }
}
