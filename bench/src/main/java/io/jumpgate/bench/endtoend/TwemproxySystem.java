package io.jumpgate.bench.endtoend;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * System (d): a Lettuce {@code RedisClient} through twemproxy (nutcracker), which splits MGET and
 * MSET over the nodes itself. RESP2, no maintenance notifications and no CLIENT SETINFO: twemproxy
 * closes the connection on HELLO, CLIENT SETINFO and CLIENT MAINT_NOTIFICATIONS.
 */
final class TwemproxySystem implements BenchSystem {
  private final KeySpace keys;
  private final RedisClient client;
  private final StatefulRedisConnection<byte[], byte[]> connection;
  private final RedisAsyncCommands<byte[], byte[]> commands;

  TwemproxySystem(KeySpace keys, String host, int port, ClientResources resources) {
    this.keys = keys;
    this.client = RedisClient.create(resources);
    client.setOptions(LettuceOptions.client());
    this.connection = client.connect(ByteArrayCodec.INSTANCE, LettuceOptions.uri(host, port));
    this.commands = connection.async();
  }

  RedisAsyncCommands<byte[], byte[]> commands() {
    return commands;
  }

  @Override
  public String name() {
    return "twemproxy";
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
