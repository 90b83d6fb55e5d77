package io.jumpgate.bench.endtoend;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisStringAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Systems (c) and (d): plain Lettuce, where one client call carries a whole MGET or MSET and the
 * other side splits it.
 *
 * <ul>
 *   <li>{@link #cluster}: Lettuce's {@code RedisClusterClient} on a 3-master Redis Cluster (Lettuce
 *       splits multi-key commands per slot);
 *   <li>{@link #throughTwemproxy}: a {@code RedisClient} through twemproxy (nutcracker), which
 *       splits them over the nodes itself. RESP2, no maintenance notifications and no CLIENT
 *       SETINFO ({@link LettuceOptions}): twemproxy closes the connection on HELLO, CLIENT SETINFO
 *       and CLIENT MAINT_NOTIFICATIONS.
 * </ul>
 */
final class LettuceSystem implements BenchSystem {
  private final String name;
  private final KeySpace keys;
  private final RedisStringAsyncCommands<byte[], byte[]> commands;
  private final Blocking blocking;
  private final Runnable closer;

  private LettuceSystem(
      String name,
      KeySpace keys,
      RedisStringAsyncCommands<byte[], byte[]> commands,
      RedisClusterCommands<byte[], byte[]> sync,
      Runnable closer) {
    this.name = name;
    this.keys = keys;
    this.commands = commands;
    this.blocking = blocking(keys, sync);
    this.closer = closer;
  }

  /** Blocking calls on one Lettuce sync API (a connection's or a cluster connection's). */
  static Blocking blocking(KeySpace keys, RedisClusterCommands<byte[], byte[]> sync) {
    return new Blocking() {
      @Override
      public Object get(int keyIndex) {
        return sync.get(keys.key(keyIndex));
      }

      @Override
      public Object set(int keyIndex) {
        return sync.set(keys.key(keyIndex), keys.value());
      }

      @Override
      public Object hset(int hashIndex) {
        return sync.hset(keys.hashKey(hashIndex), keys.hashFields());
      }

      @Override
      public Object hgetall(int hashIndex) {
        return sync.hgetall(keys.hashKey(hashIndex));
      }
    };
  }

  @Override
  public Blocking blocking() {
    return blocking;
  }

  static LettuceSystem cluster(KeySpace keys, List<RedisURI> seeds, ClientResources resources) {
    RedisClusterClient client = RedisClusterClient.create(resources, seeds);
    client.setOptions(LettuceOptions.cluster());
    StatefulRedisClusterConnection<byte[], byte[]> connection =
        client.connect(ByteArrayCodec.INSTANCE);
    return new LettuceSystem(
        "lettuceCluster",
        keys,
        connection.async(),
        connection.sync(),
        () -> {
          connection.close();
          client.shutdown();
        });
  }

  static LettuceSystem throughTwemproxy(
      KeySpace keys, String host, int port, ClientResources resources) {
    RedisClient client = RedisClient.create(resources);
    client.setOptions(LettuceOptions.client());
    StatefulRedisConnection<byte[], byte[]> connection =
        client.connect(ByteArrayCodec.INSTANCE, LettuceOptions.uri(host, port));
    return new LettuceSystem(
        "twemproxy",
        keys,
        connection.async(),
        connection.sync(),
        () -> {
          connection.close();
          client.shutdown();
        });
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CompletionStage<?> get(int keyIndex) {
    return commands.get(keys.key(keyIndex));
  }

  @Override
  public CompletionStage<?> set(int keyIndex) {
    return commands.set(keys.key(keyIndex), keys.value());
  }

  @Override
  public Object prepare(int[] keyIndexes, boolean write) {
    return keys.batch(keyIndexes, write);
  }

  @Override
  public CompletionStage<?> mget(Object prepared) {
    return commands.mget((byte[][]) prepared);
  }

  @Override
  @SuppressWarnings("unchecked")
  public CompletionStage<?> mset(Object prepared) {
    return commands.mset((Map<byte[], byte[]>) prepared);
  }

  @Override
  public void close() {
    closer.run();
  }
}
