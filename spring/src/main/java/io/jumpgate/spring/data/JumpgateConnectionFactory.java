package io.jumpgate.spring.data;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.spring.data.internal.CommandFamilies;
import io.jumpgate.spring.data.internal.ExceptionTranslation;
import io.jumpgate.spring.data.internal.JumpgateReactiveRedisConnection;
import io.jumpgate.spring.data.internal.JumpgateRedisConnection;
import io.jumpgate.spring.data.internal.ReactiveCommandFamilies;
import io.lettuce.core.RedisException;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;
import java.util.Objects;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.ReactiveRedisClusterConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;

/**
 * Spring Data Redis's {@link RedisConnectionFactory} on a {@link JumpgateClient}: {@code
 * RedisTemplate}, {@code StringRedisTemplate} and everything else built on a connection factory
 * send their commands through the driver, each keyed command to the leader of its key's shard
 * (reads as the client's read policy says) with the client's retries and deadline.
 *
 * <ul>
 *   <li>Keys are hashed on the bytes Spring's serializers produce, exactly as the driver hashes a
 *       UTF-8 String key, so a key written through {@code StringRedisTemplate} is found by the
 *       {@code JumpgateCommands} bean and by {@code jumpgate route}.
 *   <li>MGET, MSET, DEL, UNLINK, EXISTS and TOUCH are split over the nodes and merged by the
 *       driver; DBSIZE, FLUSHDB, FLUSHALL and KEYS ask every leader; {@code RedisTemplate.scan}
 *       walks the leaders one after the other and sees every key once while the map does not
 *       change.
 *   <li>Commands Redis runs only on one server (RENAME, RENAMENX, COPY, SMOVE, SINTER/SUNION/SDIFF
 *       and their STORE forms, RPOPLPUSH, LMOVE, MSETNX) run when all their keys are on one shard,
 *       else they are refused with an {@link InvalidDataAccessApiUsageException} that names the
 *       command and the shards, before anything is sent. Hash tags keep keys together.
 *   <li>Pipelining ({@code executePipelined}) sends every command as it is called, each to its
 *       shard, and answers in the order of the calls. WATCH/MULTI/EXEC and Lua scripts run on the
 *       leader of their keys' shard when every key is on one shard (a transaction on a connection
 *       of its own), else they are refused as above, nothing written. A pub/sub channel is routed
 *       like a key of the same name; patterns are subscribed on every leader.
 *   <li>It is also the {@link ReactiveRedisConnectionFactory} ({@code ReactiveRedisTemplate},
 *       {@code ReactiveStringRedisTemplate}): the same routing, each command sent when subscribed;
 *       keys, strings, numbers, hashes, lists, sets, sorted sets and the cluster-wide server
 *       commands (docs/spring.md lists them); pub/sub, scripts, transactions and pipelines are not
 *       done on the reactive side yet.
 *   <li>Not supported yet, refused with an {@link InvalidDataAccessApiUsageException} naming the
 *       command, nothing sent: the commands listed as such in docs/spring.md.
 * </ul>
 *
 * <p>The factory does not own the client: closing it closes nothing of the client's (the starter
 * closes the client with the application context). Connections are light handles over the shared
 * node connections, so getting one per operation costs nothing. Thread-safe.
 */
public final class JumpgateConnectionFactory
    implements RedisConnectionFactory, ReactiveRedisConnectionFactory {

  private final JumpgateConnection<byte[], byte[]> connection;
  private final CommandFamilies families;
  private final ReactiveCommandFamilies reactiveFamilies;

  /**
   * A factory on the client's shared node connections.
   *
   * @throws NullPointerException when the client is null
   * @throws IllegalStateException when the client is closed
   */
  public JumpgateConnectionFactory(JumpgateClient client) {
    Objects.requireNonNull(client, "client");
    this.connection = client.connect(ByteArrayCodec.INSTANCE);
    this.families =
        new CommandFamilies(
            client,
            connection.sync(),
            connection.async(),
            client::topology,
            client
                .options()
                .commandTimeout()
                .plus(client.options().freezeMaxWait())
                .plus(Duration.ofSeconds(1)));
    this.reactiveFamilies = new ReactiveCommandFamilies(connection.reactive(), client::topology);
  }

  /** A light connection handle; close it when done (it releases nothing of the client's). */
  @Override
  public RedisConnection getConnection() {
    return new JumpgateRedisConnection(families);
  }

  /**
   * Refused: Jumpgate is not a Redis Cluster (no hash slots, no CLUSTER commands); the connection
   * of {@link #getConnection()} routes every command to its shard already.
   */
  @Override
  public RedisClusterConnection getClusterConnection() {
    throw new InvalidDataAccessApiUsageException(
        "Jumpgate is not a Redis Cluster: use getConnection(), whose commands are routed to their"
            + " shards by the Jumpgate driver");
  }

  /**
   * A light reactive connection handle: each command is sent when subscribed, routed as {@link
   * #getConnection()}'s are; closing it releases nothing of the client's.
   */
  @Override
  public ReactiveRedisConnection getReactiveConnection() {
    return new JumpgateReactiveRedisConnection(reactiveFamilies);
  }

  /**
   * Refused: Jumpgate is not a Redis Cluster; the connection of {@link #getReactiveConnection()}
   * routes every command to its shard already.
   */
  @Override
  public ReactiveRedisClusterConnection getReactiveClusterConnection() {
    throw new InvalidDataAccessApiUsageException(
        "Jumpgate is not a Redis Cluster: use getReactiveConnection(), whose commands are routed to"
            + " their shards by the Jumpgate driver");
  }

  /** Refused: Jumpgate reads its nodes from its shard map, not from Sentinel. */
  @Override
  public RedisSentinelConnection getSentinelConnection() {
    throw new InvalidDataAccessApiUsageException(
        "Jumpgate reads its nodes from its shard map (etcd or a topology file), not from Sentinel");
  }

  /** {@code true}, as Lettuce's and Jedis's factories. */
  @Override
  public boolean getConvertPipelineAndTxResults() {
    return true;
  }

  /**
   * Translates the driver's and Lettuce's exceptions (see the starter's docs/spring.md); {@code
   * null} for any other exception, as Spring's contract asks.
   */
  @Override
  public DataAccessException translateExceptionIfPossible(RuntimeException failure) {
    if (failure instanceof DataAccessException
        || failure instanceof JumpgateException
        || failure instanceof RedisException) {
      return ExceptionTranslation.translate(failure);
    }
    return null;
  }

  /** Nothing to release: the client's connections are the client's. Idempotent. */
  public void close() {
    connection.close();
  }
}
