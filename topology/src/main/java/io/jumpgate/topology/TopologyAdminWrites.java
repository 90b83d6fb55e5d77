package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.TopologyAdminPlan.KeyCheck;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import io.jumpgate.topology.TopologyKeys.Kind;
import io.jumpgate.topology.TopologyKeys.ParsedKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns plans into key writes and key writes into etcd transactions: pure logic, no etcd.
 * Stateless.
 *
 * <p>Order of writes: node entries added, then shard entries in ascending shard order, then node
 * entries removed. Applied in that order, every prefix of them is a valid map (no shard ever names
 * a node that is not in the table).
 *
 * <p>Batches: consecutive writes, as many as fit in {@code maxOperations} operations, {@code
 * maxOperations} compares and {@code maxBytes} bytes (keys and values plus {@value
 * #OPERATION_OVERHEAD_BYTES} bytes per operation); a write larger than {@code maxBytes} goes alone.
 * Each batch becomes one transaction that compares every key it writes and every node key its
 * shards name (etcd's {@code --max-txn-ops} limits compares and operations separately).
 */
final class TopologyAdminWrites {

  /** Bytes counted per operation on top of its key and value (framing, revision, compare). */
  static final int OPERATION_OVERHEAD_BYTES = 32;

  /** Operations of init's last transaction besides the shard and node puts: meta, lock delete. */
  static final int INIT_LAST_EXTRA_OPERATIONS = 2;

  private TopologyAdminWrites() {}

  /**
   * One transaction of a plan: the writes, and the node keys the shards it writes name, compared
   * unchanged.
   *
   * @param writes the keys written, in the plan's order
   * @param checks the node keys compared besides the written keys
   */
  record Batch(List<KeyWrite> writes, List<KeyCheck> checks) {

    /** Compares in the transaction: one per write, one per check. */
    int compares() {
      return writes.size() + checks.size();
    }
  }

  /** Writes cut into batches, without checks (init). */
  static List<List<KeyWrite>> batches(List<KeyWrite> writes, int maxOperations, int maxBytes) {
    List<List<KeyWrite>> plain = new ArrayList<>();
    for (Batch batch : batches(null, writes, List.of(), maxOperations, maxBytes)) {
      plain.add(batch.writes());
    }
    return List.copyOf(plain);
  }

  /**
   * The transactions of a plan: consecutive writes, as many as fit in {@code maxOperations}
   * operations, {@code maxOperations} compares (writes plus the checks their shards need) and
   * {@code maxBytes} bytes.
   *
   * @param keys the cluster's keys, to find the shards among the writes; null when there are no
   *     checks
   */
  static List<Batch> batches(
      TopologyKeys keys,
      List<KeyWrite> writes,
      List<KeyCheck> checks,
      int maxOperations,
      int maxBytes) {
    Map<String, KeyCheck> checksByKey = new HashMap<>();
    checks.forEach(check -> checksByKey.put(check.key(), check));
    List<Batch> batches = new ArrayList<>();
    List<KeyWrite> batch = new ArrayList<>();
    Map<String, KeyCheck> batchChecks = new LinkedHashMap<>();
    long bytes = 0;
    for (KeyWrite write : writes) {
      long size = bytes(write);
      Set<String> needed =
          checksByKey.isEmpty() ? new LinkedHashSet<>() : namedNodeKeys(keys, write);
      needed.retainAll(checksByKey.keySet());
      int newChecks = 0;
      for (String key : needed) {
        newChecks += batchChecks.containsKey(key) ? 0 : 1;
      }
      if (!batch.isEmpty()
          && (batch.size() >= maxOperations
              || batch.size() + batchChecks.size() + 1 + newChecks > maxOperations
              || bytes + size > maxBytes)) {
        batches.add(new Batch(List.copyOf(batch), List.copyOf(batchChecks.values())));
        batch.clear();
        batchChecks.clear();
        bytes = 0;
      }
      batch.add(write);
      needed.forEach(key -> batchChecks.putIfAbsent(key, checksByKey.get(key)));
      bytes += size;
    }
    if (!batch.isEmpty()) {
      batches.add(new Batch(List.copyOf(batch), List.copyOf(batchChecks.values())));
    }
    return List.copyOf(batches);
  }

  /** The node keys a shard write names (leader and replicas), in order; empty for other keys. */
  static Set<String> namedNodeKeys(TopologyKeys keys, KeyWrite write) {
    Set<String> named = new LinkedHashSet<>();
    if (write.deletes()) {
      return named;
    }
    ParsedKey parsed = keys.parse(write.key());
    if (parsed.kind() != Kind.SHARD || parsed.shard() < 0) {
      return named;
    }
    ShardAssignment assignment =
        TopologyCodec.decodeAssignment(
            parsed.shard(), write.value().getBytes(StandardCharsets.UTF_8));
    named.add(keys.node(assignment.leader()));
    assignment.replicas().forEach(replica -> named.add(keys.node(replica)));
    return named;
  }

  /**
   * The checks of a change: every node key that the written shards name and that the plan does not
   * write itself, with the mod revision read; sorted by key.
   */
  static List<KeyCheck> planChecks(
      TopologyKeys keys, TopologyAdminState state, List<KeyWrite> writes) {
    Set<String> written = new HashSet<>();
    writes.forEach(write -> written.add(write.key()));
    SortedSet<String> named = new TreeSet<>();
    for (KeyWrite write : writes) {
      named.addAll(namedNodeKeys(keys, write));
    }
    List<KeyCheck> checks = new ArrayList<>();
    for (String key : named) {
      long revision = state.modRevision(key);
      if (!written.contains(key) && revision > 0) {
        checks.add(new KeyCheck(key, revision));
      }
    }
    return checks;
  }

  /**
   * How init cuts its writes: the batches written between the lock and the last transaction, and
   * the writes of the last transaction (which also puts meta and deletes the lock).
   *
   * @param middle batches of their own, in order; empty when everything fits in the last one
   * @param last the writes that go with meta, possibly none
   */
  record InitBatches(List<List<KeyWrite>> middle, List<KeyWrite> last) {

    /** Transactions in all: the lock, the middle batches, and the last one. */
    int transactions() {
      return middle.size() + 2;
    }
  }

  /** Cuts init's writes so that the last batch, if it fits with meta and the lock, goes last. */
  static InitBatches initBatches(
      List<KeyWrite> writes, TopologyKeys keys, int maxOperations, int maxBytes) {
    List<List<KeyWrite>> batches = batches(writes, maxOperations, maxBytes);
    if (batches.isEmpty()) {
      return new InitBatches(List.of(), List.of());
    }
    List<KeyWrite> tail = batches.get(batches.size() - 1);
    long extraBytes =
        utf8(keys.meta())
            + 64
            + utf8(InitLockProtocol.lockKey(keys))
            + 2L * OPERATION_OVERHEAD_BYTES;
    long tailBytes = 0;
    for (KeyWrite write : tail) {
      tailBytes += bytes(write);
    }
    if (tail.size() + INIT_LAST_EXTRA_OPERATIONS <= maxOperations
        && tailBytes + extraBytes <= maxBytes) {
      return new InitBatches(batches.subList(0, batches.size() - 1), tail);
    }
    return new InitBatches(batches, List.of());
  }

  /** Init's writes: every node, then every shard of the initial plan, all expected absent. */
  static List<KeyWrite> initWrites(TopologyKeys keys, Map<String, Node> nodes, Plan plan) {
    List<KeyWrite> writes = new ArrayList<>();
    new TreeMap<>(nodes)
        .forEach(
            (id, node) ->
                writes.add(new KeyWrite(keys.node(id), text(TopologyCodec.encodeNode(node)), 0)));
    for (PlanStep step : plan.steps()) {
      writes.add(
          new KeyWrite(
              keys.shard(step.shard()), text(TopologyCodec.encodeAssignment(step.after())), 0));
    }
    return writes;
  }

  /**
   * A change's writes: nodes added, shard steps, nodes removed; each with the mod revision read. A
   * shard is written at the key it was read from (any padding), or the padded key when absent.
   */
  static List<KeyWrite> planWrites(
      TopologyKeys keys, TopologyAdminState state, Plan plan, List<NodeChange> nodeChanges) {
    Map<Integer, String> shardKeys = shardKeys(keys, state);
    List<KeyWrite> writes = new ArrayList<>();
    for (NodeChange change : nodeChanges) {
      if (!change.removes()) {
        String key = keys.node(change.nodeId());
        writes.add(
            new KeyWrite(
                key, text(TopologyCodec.encodeNode(change.node())), state.modRevision(key)));
      }
    }
    for (PlanStep step : plan.steps()) {
      String key = shardKeys.getOrDefault(step.shard(), keys.shard(step.shard()));
      writes.add(
          new KeyWrite(
              key, text(TopologyCodec.encodeAssignment(step.after())), state.modRevision(key)));
    }
    for (NodeChange change : nodeChanges) {
      if (change.removes()) {
        String key = keys.node(change.nodeId());
        writes.add(new KeyWrite(key, null, state.modRevision(key)));
      }
    }
    return writes;
  }

  /** The meta value init writes. */
  static byte[] metaValue(TopologyMetadata metadata) {
    return TopologyCodec.encodeMetadata(metadata);
  }

  private static Map<Integer, String> shardKeys(TopologyKeys keys, TopologyAdminState state) {
    Map<Integer, String> shardKeys = new HashMap<>();
    for (String key : state.modRevisions().keySet()) {
      ParsedKey parsed = keys.parse(key);
      if (parsed.kind() == Kind.SHARD && parsed.shard() >= 0) {
        shardKeys.putIfAbsent(parsed.shard(), key);
      }
    }
    return shardKeys;
  }

  static long bytes(KeyWrite write) {
    return utf8(write.key())
        + (write.value() == null ? 0 : utf8(write.value()))
        + OPERATION_OVERHEAD_BYTES;
  }

  private static long utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  static String text(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }
}
