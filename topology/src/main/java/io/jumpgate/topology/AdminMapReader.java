package io.jumpgate.topology;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.KeyChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reading half of {@link TopologyAdmin}: the linearizable GETs it makes of one cluster's keys,
 * each bounded by the request timeout. The whole map to plan from, whether the cluster exists
 * before an init, and the re-reads that guard a plan of several transactions.
 *
 * <p>Every failure is a {@link TopologyUnavailableException} naming what was read. The calling
 * thread waits. Thread-safe.
 */
final class AdminMapReader {

  /**
   * What an init finds before it plans.
   *
   * @param revision the header revision of the read
   * @param metaCreateRevision the create revision of {@code meta}, 0 when it does not exist
   */
  record InitCheck(long revision, long metaCreateRevision) {}

  private final TopologyKeys keys;
  private final KV kv;
  private final AdminTransactions transactions;

  AdminMapReader(TopologyKeys keys, KV kv, AdminTransactions transactions) {
    this.keys = keys;
    this.kv = kv;
    this.transactions = transactions;
  }

  /**
   * The map as etcd has it now: one ranged GET of {@code /jumpgate/<cluster>/}.
   *
   * @throws TopologyUnavailableException if etcd cannot be read, or the cluster is not initialised
   * @throws IncompatibleTopologyException if the meta is invalid, newer or of another routing
   */
  TopologyAdminState map() {
    GetResponse response =
        transactions.read(
            kv.get(EtcdCalls.bytes(keys.rootPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.rootPrefix());
    List<KeyChange> entries = new ArrayList<>(response.getKvs().size());
    for (KeyValue keyValue : response.getKvs()) {
      entries.add(
          new KeyChange(
              keyValue.getKey().toString(StandardCharsets.UTF_8),
              keyValue.getValue().getBytes(),
              keyValue.getModRevision()));
    }
    return TopologyAdminState.decode(keys, response.getHeader().getRevision(), entries);
  }

  /** {@code meta} and the init lock, read together in one revision. */
  InitCheck initCheck() {
    TxnResponse response =
        transactions.read(
            kv.txn()
                .Then(
                    Op.get(EtcdCalls.bytes(keys.meta()), GetOption.DEFAULT),
                    Op.get(EtcdCalls.bytes(InitLockProtocol.lockKey(keys)), GetOption.DEFAULT))
                .commit(),
            "reading " + keys.meta());
    List<KeyValue> meta = response.getGetResponses().get(0).getKvs();
    return new InitCheck(
        response.getHeader().getRevision(), meta.isEmpty() ? 0 : meta.get(0).getCreateRevision());
  }

  /** The mod revision of every key under the root now (keys only). */
  Map<String, Long> modRevisions() {
    GetResponse response =
        transactions.read(
            kv.get(
                EtcdCalls.bytes(keys.rootPrefix()),
                GetOption.builder().isPrefix(true).withKeysOnly(true).build()),
            "reading " + keys.rootPrefix());
    Map<String, Long> now = new HashMap<>();
    for (KeyValue keyValue : response.getKvs()) {
      now.put(keyValue.getKey().toString(StandardCharsets.UTF_8), keyValue.getModRevision());
    }
    return now;
  }

  /** Every shard entry now, with its value and mod revision. */
  List<KeyValue> shards() {
    return transactions
        .read(
            kv.get(
                EtcdCalls.bytes(keys.shardsPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.shardsPrefix())
        .getKvs();
  }
}
