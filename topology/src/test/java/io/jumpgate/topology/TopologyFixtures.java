package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.internal.KeyChange;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Keys and values of a test cluster, as a store would hold them. */
public final class TopologyFixtures {

  public static final TopologyKeys KEYS = TopologyKeys.forCluster("test");

  private TopologyFixtures() {}

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  public static KeyChange meta(int shards, long modRevision) {
    return KeyChange.put(
        KEYS.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(shards)), modRevision);
  }

  public static KeyChange node(String id, String host, int port, long modRevision) {
    return KeyChange.put(
        KEYS.node(id), TopologyCodec.encodeNode(Node.of(id, host, port)), modRevision);
  }

  public static KeyChange shard(
      int shard, String leader, List<String> replicas, long epoch, long modRevision) {
    return KeyChange.put(
        KEYS.shard(shard),
        TopologyCodec.encodeAssignment(ShardAssignment.of(shard, leader, replicas, epoch)),
        modRevision);
  }

  public static KeyChange raw(String key, String json, long modRevision) {
    return KeyChange.put(key, utf8(json), modRevision);
  }

  public static KeyChange delete(String key, long modRevision) {
    return KeyChange.delete(key, modRevision);
  }
}
