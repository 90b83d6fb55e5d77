package io.jumpgate.topology;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.jumpgate.topology.TopologyAdmin.Progress;
import io.jumpgate.topology.TopologyAdminPlan.KeyCheck;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of {@link TopologyAdmin} for every plan but init's: the plan's key writes in
 * batches of at most {@link TopologyAdminOptions#maxOperationsPerTransaction()} operations, each an
 * etcd transaction that compares the mod revision of every key it writes and of every node entry
 * its shards name ({@link TopologyAdminPlan#checks()}). Before the first of several, every key of
 * the plan is checked again; before a transaction that deletes a node entry, no other shard may
 * name the node. A transaction that loses throws {@link TopologyAdminConflictException}, saying how
 * many were applied before it.
 *
 * <p>The calling thread waits for each transaction; {@link Progress} is told after each commit.
 * Thread-safe (holds no state of its own between calls).
 */
final class AdminBatchWriter {

  private static final Logger LOG = LoggerFactory.getLogger(TopologyAdmin.class);

  private final TopologyKeys keys;
  private final TopologyAdminOptions adminOptions;
  private final KV kv;
  private final AdminTransactions transactions;
  private final AdminMapReader reader;

  AdminBatchWriter(
      TopologyKeys keys,
      TopologyAdminOptions adminOptions,
      KV kv,
      AdminTransactions transactions,
      AdminMapReader reader) {
    this.keys = keys;
    this.adminOptions = adminOptions;
    this.kv = kv;
    this.transactions = transactions;
    this.reader = reader;
  }

  /**
   * Writes a plan that is not an init; see {@link TopologyAdmin#apply(TopologyAdminPlan,
   * Progress)}.
   */
  TopologyAdminResult apply(TopologyAdminPlan plan, Progress progress) {
    String operation = plan.plan().operation();
    if (plan.writes().isEmpty()) {
      return new TopologyAdminResult(
          keys.cluster(), operation, plan.mapRevision(), plan.mapRevision(), List.of(), 0, 0);
    }
    List<TopologyAdminWrites.Batch> batches =
        TopologyAdminWrites.batches(
            keys,
            plan.writes(),
            plan.checks(),
            adminOptions.maxOperationsPerTransaction(),
            adminOptions.maxBytesPerTransaction());
    if (batches.size() > 1) {
      verifyUnchanged(plan, batches.size());
    }
    List<Long> revisions = new ArrayList<>();
    long last = plan.mapRevision();
    for (int index = 0; index < batches.size(); index++) {
      TopologyAdminWrites.Batch batch = batches.get(index);
      verifyNoOtherReference(plan, batch, index, batches.size(), last);
      List<Cmp> compares = new ArrayList<>(batch.compares());
      List<Op> operations = new ArrayList<>(batch.writes().size());
      for (KeyWrite write : batch.writes()) {
        compares.add(EtcdCalls.expected(write));
        operations.add(EtcdCalls.operation(write));
      }
      for (KeyCheck check : batch.checks()) {
        compares.add(
            new Cmp(
                EtcdCalls.bytes(check.key()),
                Cmp.Op.EQUAL,
                CmpTarget.modRevision(check.expectedModRevision())));
      }
      TxnResponse response =
          transactions.commit(
              kv.txn().If(compares.toArray(Cmp[]::new)).Then(operations.toArray(Op[]::new)),
              operation,
              plan.readRevision(),
              index,
              batches.size());
      if (!response.isSucceeded()) {
        LOG.info(
            "cluster '{}': {} lost its compare-and-set in transaction {} of {} (read at revision"
                + " {})",
            keys.cluster(),
            operation,
            index + 1,
            batches.size(),
            plan.readRevision());
        throw new TopologyAdminConflictException(plan.mapRevision(), index, batches.size(), last);
      }
      last = response.getHeader().getRevision();
      revisions.add(last);
      progress.committed(index + 1, batches.size(), last);
    }
    LOG.info(
        "cluster '{}': {} applied at revision {} ({} keys in {} transaction(s), read at {})",
        keys.cluster(),
        operation,
        last,
        plan.writes().size(),
        batches.size(),
        plan.readRevision());
    return new TopologyAdminResult(
        keys.cluster(), operation, plan.mapRevision(), last, revisions, plan.writes().size(), 0);
  }

  /**
   * The plan is of this admin's cluster and writes under its root only.
   *
   * @throws IllegalArgumentException if not
   */
  static void requireOwnCluster(TopologyKeys keys, TopologyAdminPlan plan) {
    if (!plan.cluster().equals(keys.cluster())) {
      throw new IllegalArgumentException(
          "the plan is for cluster '"
              + plan.cluster()
              + "', this admin changes cluster '"
              + keys.cluster()
              + "'");
    }
    for (KeyWrite write : plan.writes()) {
      if (!write.key().startsWith(keys.rootPrefix())) {
        throw new IllegalArgumentException(
            "the plan writes " + write.key() + ", outside " + keys.rootPrefix());
      }
    }
  }

  /**
   * Before a plan of several transactions: every key it writes or checks must still be as the plan
   * read it, so that a change made since the plan fails with nothing written.
   */
  private void verifyUnchanged(TopologyAdminPlan plan, int transactions) {
    Map<String, Long> now = reader.modRevisions();
    Map<String, Long> expected = new TreeMap<>();
    plan.writes().forEach(write -> expected.put(write.key(), write.expectedModRevision()));
    plan.checks().forEach(check -> expected.put(check.key(), check.expectedModRevision()));
    for (Map.Entry<String, Long> entry : expected.entrySet()) {
      long found = now.getOrDefault(entry.getKey(), 0L);
      if (found != entry.getValue()) {
        LOG.info(
            "cluster '{}': {} changed since revision {} (mod revision {} -> {}); nothing written",
            keys.cluster(),
            entry.getKey(),
            plan.readRevision(),
            entry.getValue(),
            found);
        throw new TopologyAdminConflictException(
            plan.mapRevision(), 0, transactions, plan.mapRevision());
      }
    }
  }

  /**
   * Before a transaction that deletes a node entry: no shard that the transaction does not rewrite
   * may name the node (another operator may have given it a shard since the plan was read; etcd
   * cannot compare "no key names it"). Leaves a window of one round trip.
   */
  private void verifyNoOtherReference(
      TopologyAdminPlan plan,
      TopologyAdminWrites.Batch batch,
      int index,
      int transactions,
      long last) {
    Set<String> deleted = new HashSet<>();
    Set<String> rewritten = new HashSet<>();
    for (KeyWrite write : batch.writes()) {
      rewritten.add(write.key());
      if (write.deletes() && keys.parse(write.key()).kind() == TopologyKeys.Kind.NODE) {
        deleted.add(keys.parse(write.key()).name());
      }
    }
    if (deleted.isEmpty()) {
      return;
    }
    for (KeyValue keyValue : reader.shards()) {
      String key = keyValue.getKey().toString(StandardCharsets.UTF_8);
      TopologyKeys.ParsedKey parsed = keys.parse(key);
      if (rewritten.contains(key) || parsed.shard() < 0) {
        continue;
      }
      ShardAssignment assignment;
      try {
        assignment = TopologyCodec.decodeAssignment(parsed.shard(), keyValue.getValue().getBytes());
      } catch (TopologyEntryException e) {
        continue;
      }
      for (String nodeId : deleted) {
        if (assignment.names(nodeId)) {
          LOG.info(
              "cluster '{}': {} names node '{}' since revision {}, after the plan read revision"
                  + " {}; the node is not deleted",
              keys.cluster(),
              key,
              nodeId,
              keyValue.getModRevision(),
              plan.readRevision());
          throw new TopologyAdminConflictException(plan.mapRevision(), index, transactions, last);
        }
      }
    }
  }
}
