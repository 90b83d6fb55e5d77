package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.CrossShardException;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.spi.ShardUnavailableException;
import io.jumpgate.spi.TopologyUnavailableException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

/**
 * Turns the driver's exceptions into Spring's {@link DataAccessException} hierarchy, keeping the
 * driver's message (which names the shard, node and tries) and the exception as the cause:
 *
 * <ul>
 *   <li>{@link CrossShardException}, {@link IllegalArgumentException}, {@link
 *       NullPointerException}: {@link InvalidDataAccessApiUsageException} (nothing was sent);
 *   <li>{@link CommandTimeoutException}, Lettuce's {@link RedisCommandTimeoutException}: {@link
 *       QueryTimeoutException};
 *   <li>{@link NodeUnavailableException}, {@link ShardUnavailableException}, {@link
 *       TopologyUnavailableException}, Lettuce's {@link RedisConnectionException}: {@link
 *       RedisConnectionFailureException};
 *   <li>a {@link BroadcastFailedException}: translated as its first failure, the broadcast as the
 *       cause;
 *   <li>anything else, server errors (WRONGTYPE, ERR ...) included: {@link RedisSystemException}.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class ExceptionTranslation {

  private ExceptionTranslation() {}

  /**
   * Runs one driver call on the caller's thread and returns its answer; a failure comes out as
   * {@link #translate} makes it.
   */
  public static <T> T translated(java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  /** The Spring exception for a failure of the driver; a {@link DataAccessException} as is. */
  public static DataAccessException translate(RuntimeException failure) {
    if (failure instanceof DataAccessException alreadyTranslated) {
      return alreadyTranslated;
    }
    if (failure instanceof CrossShardException
        || failure instanceof IllegalArgumentException
        || failure instanceof NullPointerException) {
      return new InvalidDataAccessApiUsageException(failure.getMessage(), failure);
    }
    if (failure instanceof CommandTimeoutException
        || failure instanceof RedisCommandTimeoutException) {
      return new QueryTimeoutException(failure.getMessage(), failure);
    }
    if (failure instanceof NodeUnavailableException
        || failure instanceof ShardUnavailableException
        || failure instanceof TopologyUnavailableException
        || failure instanceof RedisConnectionException) {
      return new RedisConnectionFailureException(failure.getMessage(), failure);
    }
    if (failure instanceof BroadcastFailedException broadcast
        && broadcast.getCause() instanceof RuntimeException first) {
      DataAccessException translated = translate(first);
      return withCause(translated, broadcast);
    }
    return new RedisSystemException(failure.getMessage(), failure);
  }

  private static DataAccessException withCause(
      DataAccessException translated, BroadcastFailedException broadcast) {
    String message = broadcast.getMessage();
    if (translated instanceof QueryTimeoutException) {
      return new QueryTimeoutException(message, broadcast);
    }
    if (translated instanceof RedisConnectionFailureException) {
      return new RedisConnectionFailureException(message, broadcast);
    }
    if (translated instanceof InvalidDataAccessApiUsageException) {
      return new InvalidDataAccessApiUsageException(message, broadcast);
    }
    return new RedisSystemException(message, broadcast);
  }
}
