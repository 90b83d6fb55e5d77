package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateAsyncCommands;
import java.util.concurrent.CompletionStage;
import org.springframework.data.redis.connection.DataType;

/**
 * The key commands a pipeline sends without waiting: the same names, parameters and answers as
 * {@link RoutedKeyCommands}, on the driver's asynchronous view (see {@link PipelinedFamily}). DEL,
 * UNLINK, EXISTS and TOUCH are split over the nodes by the driver.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class AsynchronousKeyCommands {

  private final JumpgateAsyncCommands<byte[], byte[]> redis;

  AsynchronousKeyCommands(JumpgateAsyncCommands<byte[], byte[]> redis) {
    this.redis = redis;
  }

  CompletionStage<Long> del(byte[]... keys) {
    return redis.del(keys);
  }

  CompletionStage<Long> unlink(byte[]... keys) {
    return redis.unlink(keys);
  }

  CompletionStage<Long> exists(byte[]... keys) {
    return redis.exists(keys);
  }

  CompletionStage<Long> touch(byte[]... keys) {
    return redis.touch(keys);
  }

  CompletionStage<Long> ttl(byte[] key) {
    return redis.ttl(key);
  }

  CompletionStage<Long> pTtl(byte[] key) {
    return redis.pttl(key);
  }

  CompletionStage<Boolean> persist(byte[] key) {
    return redis.persist(key);
  }

  CompletionStage<DataType> type(byte[] key) {
    return redis.type(key).thenApply(DataType::fromCode);
  }
}
