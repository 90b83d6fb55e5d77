package io.jumpgate.bench.endtoend;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/** System (c): Lettuce's {@code RedisClusterClient} on a 3-master Redis Cluster. */
final class LettuceClusterSystem implements BenchSystem {
  private final KeySpace keys;
  private final RedisClusterClient client;
  private final StatefulRedisClusterConnection<byte[], byte[]> connection;
  private final RedisAdvancedClusterAsyncCommands<byte[], byte[]> commands;

  LettuceClusterSystem(KeySpace keys, List<RedisURI> seeds, ClientResources resources) {
    this.keys = keys;
    this.client = RedisClusterClient.create(resources, seeds);
    client.setOptions(LettuceOptions.cluster());
    this.connection = client.connect(ByteArrayCodec.INSTANCE);
    this.commands = connection.async();
  }

  RedisAdvancedClusterAsyncCommands<byte[], byte[]> commands() {
    return commands;
  }

  @Override
  public String name() {
    return "lettuceCluster";
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
    if (!write) {
      return keys.keysOf(keyIndexes);
    }
    Map<byte[], byte[]> map = new LinkedHashMap<>();
    for (int index : keyIndexes) {
      map.put(keys.key(index), keys.value());
    }
    return map;
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
    connection.close();
    client.shutdown();
  }
}
