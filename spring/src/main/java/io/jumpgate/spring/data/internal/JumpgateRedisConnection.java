package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;

import java.util.List;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.AbstractRedisConnection;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisCommands;
import org.springframework.data.redis.connection.RedisGeoCommands;
import org.springframework.data.redis.connection.RedisHashCommands;
import org.springframework.data.redis.connection.RedisHyperLogLogCommands;
import org.springframework.data.redis.connection.RedisInvalidSubscriptionException;
import org.springframework.data.redis.connection.RedisKeyCommands;
import org.springframework.data.redis.connection.RedisListCommands;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.RedisServerCommands;
import org.springframework.data.redis.connection.RedisSetCommands;
import org.springframework.data.redis.connection.RedisStreamCommands;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.connection.RedisZSetCommands;
import org.springframework.data.redis.connection.Subscription;

/**
 * A Spring Data Redis connection on the Jumpgate driver: a light handle over the factory's shared
 * {@link CommandFamilies} (no socket of its own: the driver's node connections are shared and
 * pipelined), so getting and closing one per operation, as {@code RedisTemplate} does, costs
 * nothing. Every command is sent and answered before the method returns.
 *
 * <p>Pipelining ({@code executePipelined}): see {@link #openPipeline()}; MULTI/EXEC/WATCH in one
 * shard: see {@link #multi()}. Pub/sub: see {@link #subscribe}. Arbitrary commands ({@code
 * execute}) are refused with {@link InvalidDataAccessApiUsageException} naming them, nothing sent.
 * Database 0 only. Spring hands a connection to one thread; outside a pipeline it is thread-safe
 * like the driver, a pipeline belongs to one thread.
 */
public final class JumpgateRedisConnection extends AbstractRedisConnection {

  private final CommandFamilies families;
  private volatile boolean closed;
  private Pipeline pipeline;
  private PipelinedFamilies pipelined;
  private OneShardTransaction transaction;
  private volatile RoutedSubscription subscription;

  /** A connection over the factory's shared command families. */
  public JumpgateRedisConnection(CommandFamilies families) {
    this.families = families;
  }

  @Override
  public void close() {
    closed = true;
    if (transaction != null) {
      transaction.end();
    }
    RoutedSubscription subscribed = subscription;
    if (subscribed != null) {
      subscribed.close();
    }
    super.close();
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  /** The driver's blocking view with the byte-array codec. */
  @Override
  public Object getNativeConnection() {
    return families.driver();
  }

  /** Between MULTI and EXEC (or DISCARD): commands are kept for EXEC and return {@code null}. */
  @Override
  public boolean isQueueing() {
    return transaction != null && transaction.isQueueing();
  }

  @Override
  public boolean isPipelined() {
    return pipeline != null;
  }

  /**
   * Starts pipelining: from now on every command returns {@code null} and its answer is kept, in
   * order, for {@link #closePipeline()}. Commands are sent as they are called, each to its own
   * shard. Calling it again while pipelining changes nothing.
   */
  @Override
  public void openPipeline() {
    if (isQueueing()) {
      throw new InvalidDataAccessApiUsageException(
          "a pipeline cannot be opened inside MULTI (nothing was sent)");
    }
    if (pipeline == null) {
      pipeline = families.newPipeline();
      pipelined = families.pipelined(pipeline);
    }
  }

  /**
   * Ends pipelining and returns the answers in the order of the calls (commands returning nothing,
   * such as RENAME, leave no answer), after waiting for them at most the command timeout plus the
   * freeze wait; an empty list when not pipelining.
   *
   * @throws org.springframework.data.redis.connection.RedisPipelineException when a command failed:
   *     its results hold every answer, and each failed command's exception in its place
   */
  @Override
  public List<Object> closePipeline() {
    Pipeline ending = pipeline;
    pipeline = null;
    pipelined = null;
    return ending == null ? List.of() : ending.close();
  }

  @Override
  public RedisSentinelConnection getSentinelConnection() {
    throw Refusals.noKey("Sentinel", "Jumpgate reads its nodes from its shard map, not Sentinel");
  }

  @Override
  public RedisCommands commands() {
    return this;
  }

  @Override
  public RedisKeyCommands keyCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().keys();
    }
    return pipelined == null ? families.keys() : pipelined.keys;
  }

  @Override
  public RedisStringCommands stringCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().strings();
    }
    return pipelined == null ? families.strings() : pipelined.strings;
  }

  @Override
  public RedisHashCommands hashCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().hashes();
    }
    return pipelined == null ? families.hashes() : pipelined.hashes;
  }

  @Override
  public RedisListCommands listCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().lists();
    }
    return pipelined == null ? families.lists() : pipelined.lists;
  }

  @Override
  public RedisSetCommands setCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().sets();
    }
    return pipelined == null ? families.sets() : pipelined.sets;
  }

  @Override
  public RedisZSetCommands zSetCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().sortedSets();
    }
    return pipelined == null ? families.sortedSets() : pipelined.sortedSets;
  }

  @Override
  public RedisServerCommands serverCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().server();
    }
    return pipelined == null ? families.server() : pipelined.server;
  }

  @Override
  public RedisScriptingCommands scriptingCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().scripting();
    }
    return pipelined == null ? families.scripting() : pipelined.scripting;
  }

  @Override
  public RedisGeoCommands geoCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().geo();
    }
    return pipelined == null ? families.geo() : pipelined.geo;
  }

  @Override
  public RedisHyperLogLogCommands hyperLogLogCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().hyperLogLog();
    }
    return pipelined == null ? families.hyperLogLog() : pipelined.hyperLogLog;
  }

  @Override
  public RedisStreamCommands streamCommands() {
    if (isQueueing()) {
      return transaction.queueingFamilies().streams();
    }
    return pipelined == null ? families.streams() : pipelined.streams;
  }

  @Override
  public Object execute(String command, byte[]... args) {
    throw Refusals.noKey(
        command,
        "an arbitrary command's key cannot be told from its other arguments; use the"
            + " JumpgateCommands bean's dispatch(routingKey, ...)");
  }

  /**
   * Starts a transaction: the commands until EXEC are kept (each returns {@code null}) and sent
   * with MULTI and EXEC to the leader of their shard on a connection of its own; see {@link
   * OneShardTransaction}.
   */
  @Override
  public void multi() {
    if (isPipelined()) {
      throw new InvalidDataAccessApiUsageException(
          "MULTI inside a pipeline is not supported by Jumpgate (nothing was sent)");
    }
    transaction().multi();
  }

  /**
   * Sends MULTI, the kept commands and EXEC to their shard's leader; {@code null} when a watched
   * key changed and Redis aborted the transaction.
   *
   * @throws InvalidDataAccessApiUsageException when the watched and kept keys are on two shards or
   *     more: nothing was written
   */
  @Override
  public List<Object> exec() {
    return transaction().exec();
  }

  @Override
  public void discard() {
    transaction().discard();
  }

  /** WATCH on the leader of the keys' shard, on the transaction's own connection. */
  @Override
  public void watch(byte[]... keys) {
    transaction().watch(keys);
  }

  @Override
  public void unwatch() {
    if (transaction != null) {
      transaction.unwatch();
    }
  }

  private OneShardTransaction transaction() {
    if (transaction == null) {
      transaction = families.newTransaction();
    }
    return transaction;
  }

  /** PING on every node, leaders and replicas: {@code "PONG"} when every node answered. */
  @Override
  public String ping() {
    try {
      families.driver().ping();
      return "PONG";
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  @Override
  public byte[] echo(byte[] message) {
    throw Refusals.noKey("ECHO", "it has no key, and a cluster has many nodes");
  }

  /** Database 0 is the only one: every other index is refused. */
  @Override
  public void select(int dbIndex) {
    if (dbIndex != 0) {
      throw new InvalidDataAccessApiUsageException(
          "SELECT "
              + dbIndex
              + " is refused: Jumpgate uses database 0 on every node (nothing was sent)");
    }
  }

  @Override
  public boolean isSubscribed() {
    RoutedSubscription subscribed = subscription;
    return subscribed != null && subscribed.isAlive();
  }

  @Override
  public Subscription getSubscription() {
    return subscription;
  }

  /** PUBLISH to the leader of the channel's shard: a channel is routed as a key of its name. */
  @Override
  public Long publish(byte[] channel, byte[] message) {
    return families.publish(channel, message);
  }

  /**
   * Subscribes to the channels, each on the leader of its shard (a channel is routed as a key of
   * its name, hash tags included), and blocks until the subscription is closed ({@code
   * getSubscription().close()}, or this connection's close), as Jedis does: Spring's {@code
   * RedisMessageListenerContainer} calls it on a thread of its own and adds channels through {@link
   * #getSubscription()}. The listener is called on the subscription connections' I/O threads.
   */
  @Override
  public void subscribe(MessageListener listener, byte[]... channels) {
    subscribed(listener).subscribe(channels);
    subscription.awaitClosed();
  }

  /**
   * Subscribes to the patterns on every leader (a pattern may match channels of any shard), and
   * blocks until the subscription is closed, as {@link #subscribe} does.
   */
  @Override
  public void pSubscribe(MessageListener listener, byte[]... patterns) {
    subscribed(listener).pSubscribe(patterns);
    subscription.awaitClosed();
  }

  private RoutedSubscription subscribed(MessageListener listener) {
    if (isSubscribed()) {
      throw new RedisInvalidSubscriptionException(
          "Connection already subscribed; use the connection's Subscription to add channels", null);
    }
    if (isPipelined() || isQueueing()) {
      throw new InvalidDataAccessApiUsageException(
          "SUBSCRIBE inside a pipeline or MULTI is not supported (nothing was sent)");
    }
    RoutedSubscription started = families.newSubscription(listener);
    subscription = started;
    return started;
  }
}
