package io.jumpgate.it.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Writes a topology into etcd the way an operator's script would: raw JSON on the contract's keys,
 * through a plain jetcd client (not Jumpgate's codec or admin), so the tests check the reader
 * against the wire format itself.
 */
final class TopologyWriter implements AutoCloseable {

  private static final long TIMEOUT_SECONDS = 10;

  private final Client client;
  private final KV kv;
  private final String root;

  TopologyWriter(String endpoints, String cluster) {
    this.client = Client.builder().endpoints(endpoints.split(",")).build();
    this.kv = client.getKVClient();
    this.root = "/jumpgate/" + cluster + "/";
  }

  String root() {
    return root;
  }

  /**
   * meta, nodes n0..n(count-1) on 127.0.0.1:7000+i, shard i led by n(i % count), one replica.
   * Written as an operator's script would within etcd's default limit of 128 operations per
   * transaction: nodes and shards in batches, meta last (readers see nothing before meta).
   *
   * @return the revision of the meta write, where the map becomes whole
   */
  long init(int shards, int nodeCount) throws Exception {
    List<Op> puts = new ArrayList<>();
    for (int node = 0; node < nodeCount; node++) {
      puts.add(putOp("nodes/n" + node, nodeJson(7000 + node)));
    }
    for (int shard = 0; shard < shards; shard++) {
      puts.add(putOp(shardKey(shard), shardJson(shard % nodeCount, nodeCount, 0)));
      if (puts.size() == 100) {
        txn(puts);
        puts.clear();
      }
    }
    if (!puts.isEmpty()) {
      txn(puts);
    }
    return put("meta", "{\"format\":1,\"shards\":" + shards + ",\"routing\":\"xxh64-jump\"}");
  }

  static String nodeJson(int port) {
    return "{\"host\":\"127.0.0.1\",\"port\":" + port + "}";
  }

  static String shardKey(int shard) {
    return String.format("shards/%04d", shard);
  }

  /** Shard JSON led by n(leader) with the next node as replica (when there is one). */
  static String shardJson(int leader, int nodeCount, long epoch) {
    String replicas = nodeCount > 1 ? "\"n" + ((leader + 1) % nodeCount) + "\"" : "";
    return "{\"leader\":\"n"
        + leader
        + "\",\"replicas\":["
        + replicas
        + "],\"epoch\":"
        + epoch
        + ",\"state\":\"active\"}";
  }

  long put(String relativeKey, String value) throws Exception {
    return kv.put(bytes(root + relativeKey), bytes(value))
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  /** All puts in one transaction: one etcd revision. */
  long putAll(Map<String, String> relativeKeysToValues) throws Exception {
    List<Op> puts = new ArrayList<>();
    relativeKeysToValues.forEach((key, value) -> puts.add(putOp(key, value)));
    return txn(puts);
  }

  long delete(String relativeKey) throws Exception {
    return kv.delete(bytes(root + relativeKey), DeleteOption.DEFAULT)
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  void compact(long revision) throws Exception {
    kv.compact(revision).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  long currentRevision() throws Exception {
    return kv.get(bytes(root + "meta"))
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  /** The value at a key as etcd has it now, or null. */
  String get(String relativeKey) throws Exception {
    var response =
        kv.get(bytes(root + relativeKey), GetOption.DEFAULT).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return response.getKvs().isEmpty()
        ? null
        : response.getKvs().get(0).getValue().toString(StandardCharsets.UTF_8);
  }

  /**
   * etcd's own history: every revision from {@code fromRevision} to {@code toRevision} (both
   * included) that changed a key under the root, read back with a watch.
   */
  TreeSet<Long> historyRevisions(long fromRevision, long toRevision) throws Exception {
    TreeSet<Long> revisions = new TreeSet<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    WatchOption option =
        WatchOption.builder()
            .isPrefix(true)
            .withRevision(fromRevision)
            .withProgressNotify(true)
            .build();
    try (var watcher =
        client
            .getWatchClient()
            .watch(
                bytes(root),
                option,
                response -> {
                  for (WatchEvent event : response.getEvents()) {
                    long revision = event.getKeyValue().getModRevision();
                    if (revision <= toRevision) {
                      revisions.add(revision);
                    }
                    if (revision >= toRevision) {
                      done.complete(null);
                    }
                  }
                },
                done::completeExceptionally)) {
      done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
    return revisions;
  }

  private long txn(List<Op> operations) throws Exception {
    Txn txn = kv.txn();
    return txn.Then(operations.toArray(Op[]::new))
        .commit()
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private Op putOp(String relativeKey, String value) {
    return Op.put(bytes(root + relativeKey), bytes(value), PutOption.DEFAULT);
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    client.close();
  }
}
