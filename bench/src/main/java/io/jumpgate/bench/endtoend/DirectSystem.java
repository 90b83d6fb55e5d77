package io.jumpgate.bench.endtoend;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * System (b), the physical limit of any client-side router: one raw Lettuce connection per node,
 * and the node of every key computed before the timed part with the same routing function and map
 * as Jumpgate. MGET and MSET are grouped per node beforehand too; the timed part sends one command
 * per node and waits for all of them (no reassembly in key order).
 */
final class DirectSystem implements BenchSystem {
  private final KeySpace keys;
  private final RedisClient client;
  private final List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
  private final RedisAsyncCommands<byte[], byte[]>[] nodes;
  private final RedisCommands<byte[], byte[]>[] syncNodes;
  private final byte[] nodeOfHash;
  private final Blocking blocking;
  private final byte[] nodeOfKey;

  /** A batch split per node: {@code nodeIndexes[i]} gets {@code keys[i]} or {@code maps[i]}. */
  private record Grouped(int[] nodeIndexes, byte[][][] keys, Map<byte[], byte[]>[] maps) {}

  @SuppressWarnings("unchecked")
  DirectSystem(KeySpace keys, TopologySnapshot topology, ClientResources resources) {
    this.keys = keys;
    this.client = RedisClient.create(resources);
    client.setOptions(LettuceOptions.client());
    List<String> nodeIds = new ArrayList<>(topology.nodes().keySet());
    nodes = new RedisAsyncCommands[nodeIds.size()];
    syncNodes = new RedisCommands[nodeIds.size()];
    for (int index = 0; index < nodeIds.size(); index++) {
      Node node = topology.nodes().get(nodeIds.get(index));
      StatefulRedisConnection<byte[], byte[]> connection =
          client.connect(ByteArrayCodec.INSTANCE, LettuceOptions.uri(node.host(), node.port()));
      connections.add(connection);
      nodes[index] = connection.async();
      syncNodes[index] = connection.sync();
    }
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(topology.shardCount());
    nodeOfKey = new byte[keys.keyCount()];
    for (int index = 0; index < keys.keyCount(); index++) {
      Node leader = topology.route(router.shardOf(keys.key(index))).leader();
      nodeOfKey[index] = (byte) nodeIds.indexOf(leader.id());
    }
    nodeOfHash = new byte[keys.hashKeyCount()];
    for (int index = 0; index < keys.hashKeyCount(); index++) {
      Node leader = topology.route(router.shardOf(keys.hashKey(index))).leader();
      nodeOfHash[index] = (byte) nodeIds.indexOf(leader.id());
    }
    blocking =
        new Blocking() {
          @Override
          public Object get(int keyIndex) {
            return syncNodes[nodeOfKey[keyIndex]].get(keys.key(keyIndex));
          }

          @Override
          public Object set(int keyIndex) {
            return syncNodes[nodeOfKey[keyIndex]].set(keys.key(keyIndex), keys.value());
          }

          @Override
          public Object hset(int hashIndex) {
            return syncNodes[nodeOfHash[hashIndex]].hset(
                keys.hashKey(hashIndex), keys.hashFields());
          }

          @Override
          public Object hgetall(int hashIndex) {
            return syncNodes[nodeOfHash[hashIndex]].hgetall(keys.hashKey(hashIndex));
          }
        };
  }

  /**
   * Blocking calls on each node's Lettuce sync connection (the same connections as the async ones),
   * the node of every key looked up in a table made before anything is timed.
   */
  @Override
  public Blocking blocking() {
    return blocking;
  }

  /** The index of the node (in the topology's node order) that leads key {@code keyIndex}. */
  int nodeOf(int keyIndex) {
    return nodeOfKey[keyIndex];
  }

  /** The connections' commands, one per node in the topology's node order. */
  RedisAsyncCommands<byte[], byte[]> node(int index) {
    return nodes[index];
  }

  int nodeCount() {
    return nodes.length;
  }

  @Override
  public String name() {
    return "direct";
  }

  @Override
  public CompletionStage<?> get(int keyIndex) {
    return nodes[nodeOfKey[keyIndex]].get(keys.key(keyIndex));
  }

  @Override
  public CompletionStage<?> set(int keyIndex) {
    return nodes[nodeOfKey[keyIndex]].set(keys.key(keyIndex), keys.value());
  }

  @Override
  @SuppressWarnings("unchecked")
  public Object prepare(int[] keyIndexes, boolean write) {
    List<List<byte[]>> perNode = new ArrayList<>();
    for (int node = 0; node < nodes.length; node++) {
      perNode.add(new ArrayList<>());
    }
    for (int index : keyIndexes) {
      perNode.get(nodeOfKey[index]).add(keys.key(index));
    }
    int used = (int) perNode.stream().filter(list -> !list.isEmpty()).count();
    int[] nodeIndexes = new int[used];
    byte[][][] grouped = new byte[used][][];
    Map<byte[], byte[]>[] maps = new Map[used];
    int slot = 0;
    for (int node = 0; node < nodes.length; node++) {
      List<byte[]> list = perNode.get(node);
      if (list.isEmpty()) {
        continue;
      }
      nodeIndexes[slot] = node;
      grouped[slot] = list.toArray(new byte[0][]);
      Map<byte[], byte[]> map = new LinkedHashMap<>();
      for (byte[] key : list) {
        map.put(key, keys.value());
      }
      maps[slot] = write ? map : null;
      slot++;
    }
    return new Grouped(nodeIndexes, grouped, maps);
  }

  @Override
  public CompletionStage<?> mget(Object prepared) {
    Grouped grouped = (Grouped) prepared;
    int[] nodeIndexes = grouped.nodeIndexes();
    if (nodeIndexes.length == 1) {
      return nodes[nodeIndexes[0]].mget(grouped.keys()[0]);
    }
    CompletableFuture<?>[] parts = new CompletableFuture<?>[nodeIndexes.length];
    for (int index = 0; index < nodeIndexes.length; index++) {
      parts[index] = nodes[nodeIndexes[index]].mget(grouped.keys()[index]).toCompletableFuture();
    }
    return CompletableFuture.allOf(parts);
  }

  @Override
  public CompletionStage<?> mset(Object prepared) {
    Grouped grouped = (Grouped) prepared;
    int[] nodeIndexes = grouped.nodeIndexes();
    if (nodeIndexes.length == 1) {
      return nodes[nodeIndexes[0]].mset(grouped.maps()[0]);
    }
    CompletableFuture<?>[] parts = new CompletableFuture<?>[nodeIndexes.length];
    for (int index = 0; index < nodeIndexes.length; index++) {
      parts[index] = nodes[nodeIndexes[index]].mset(grouped.maps()[index]).toCompletableFuture();
    }
    return CompletableFuture.allOf(parts);
  }

  @Override
  public void close() {
    connections.forEach(StatefulRedisConnection::close);
    client.shutdown();
  }
}
