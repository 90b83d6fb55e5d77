package io.jumpgate.bench.endtoend;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * System (a): the Jumpgate driver's async API (its {@code sync()} view for the blocking workloads),
 * reading the map from etcd.
 */
final class JumpgateSystem implements BenchSystem {
  private final KeySpace keys;
  private final JumpgateClient client;
  private final JumpgateAsyncCommands<byte[], byte[]> commands;
  private final Blocking blocking;

  JumpgateSystem(
      KeySpace keys,
      String etcdEndpoints,
      String cluster,
      ClientResources resources,
      boolean coalescing) {
    this.keys = keys;
    this.client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .etcd(
                    EtcdTopologyOptions.builder().endpoints(etcdEndpoints).cluster(cluster).build())
                .clientResources(resources)
                .writeCoalescing(coalescing)
                .build());
    JumpgateConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
    this.commands = connection.async();
    JumpgateCommands<byte[], byte[]> sync = connection.sync();
    awaitConnections(sync);
    this.blocking =
        new Blocking() {
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

  /**
   * PINGs every node until all answer (at most 60 s): on a loaded machine the first connects may
   * take longer than a command's deadline, which would fail the preload rather than measure
   * anything. Not timed.
   */
  private static void awaitConnections(JumpgateCommands<byte[], byte[]> sync) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        sync.ping();
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the Jumpgate nodes did not answer PING within 60 s", e);
        }
        EndToEndBenchmark.log("Jumpgate nodes not all connected yet, again: " + e.getMessage());
      }
    }
  }

  JumpgateClient client() {
    return client;
  }

  @Override
  public String name() {
    return "jumpgate";
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
    client.close();
  }
}
