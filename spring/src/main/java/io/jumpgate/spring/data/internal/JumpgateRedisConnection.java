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
 * <p>Not pipelined, never queueing: pipelining, MULTI/EXEC/WATCH, pub/sub and arbitrary commands
 * ({@code execute}) are refused with {@link InvalidDataAccessApiUsageException} naming them,
 * nothing sent. Database 0 only. Thread-safe like the driver, though Spring hands a connection to
 * one thread.
 */
public final class JumpgateRedisConnection extends AbstractRedisConnection {

  private final CommandFamilies families;
  private volatile boolean closed;

  /** A connection over the factory's shared command families. */
  public JumpgateRedisConnection(CommandFamilies families) {
    this.families = families;
  }

  @Override
  public void close() {
    closed = true;
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

  @Override
  public boolean isQueueing() {
    return false;
  }

  @Override
  public boolean isPipelined() {
    return false;
  }

  @Override
  public void openPipeline() {
    throw Refusals.unsupported("Pipelining (executePipelined)");
  }

  @Override
  public List<Object> closePipeline() {
    return List.of();
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
    return families.keys();
  }

  @Override
  public RedisStringCommands stringCommands() {
    return families.strings();
  }

  @Override
  public RedisHashCommands hashCommands() {
    return families.hashes();
  }

  @Override
  public RedisListCommands listCommands() {
    return families.lists();
  }

  @Override
  public RedisSetCommands setCommands() {
    return families.sets();
  }

  @Override
  public RedisZSetCommands zSetCommands() {
    return families.sortedSets();
  }

  @Override
  public RedisServerCommands serverCommands() {
    return families.server();
  }

  @Override
  public RedisScriptingCommands scriptingCommands() {
    return families.scripting();
  }

  @Override
  public RedisGeoCommands geoCommands() {
    return families.geo();
  }

  @Override
  public RedisHyperLogLogCommands hyperLogLogCommands() {
    return families.hyperLogLog();
  }

  @Override
  public RedisStreamCommands streamCommands() {
    return families.streams();
  }

  @Override
  public Object execute(String command, byte[]... args) {
    throw Refusals.noKey(
        command,
        "an arbitrary command's key cannot be told from its other arguments; use the"
            + " JumpgateCommands bean's dispatch(routingKey, ...)");
  }

  @Override
  public void multi() {
    throw Refusals.unsupported("MULTI");
  }

  @Override
  public List<Object> exec() {
    throw Refusals.unsupported("EXEC");
  }

  @Override
  public void discard() {
    throw Refusals.unsupported("DISCARD");
  }

  @Override
  public void watch(byte[]... keys) {
    throw Refusals.unsupported("WATCH");
  }

  @Override
  public void unwatch() {
    throw Refusals.unsupported("UNWATCH");
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
    return false;
  }

  @Override
  public Subscription getSubscription() {
    return null;
  }

  @Override
  public Long publish(byte[] channel, byte[] message) {
    throw Refusals.unsupported("PUBLISH");
  }

  @Override
  public void subscribe(MessageListener listener, byte[]... channels) {
    throw Refusals.unsupported("SUBSCRIBE");
  }

  @Override
  public void pSubscribe(MessageListener listener, byte[]... patterns) {
    throw Refusals.unsupported("PSUBSCRIBE");
  }
}
