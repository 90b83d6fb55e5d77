package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.topology.TopologyAdmin.Progress;
import io.jumpgate.topology.TopologyAdminException.Reason;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The init protocol of {@link TopologyAdmin} (see its class documentation): claim {@code
 * <root>/init-lock} under a lease in one transaction (only while there is no {@code meta} and no
 * other init, deleting an interrupted init's leftovers), write the nodes and shards in batches that
 * each hold only while the lock still holds this init's token, then put the last batch and {@code
 * meta} and delete the lock in one transaction, so that readers see the map whole at the revision
 * of meta. The lease is renewed as the batches go, and revoked at the end whatever happens.
 *
 * <p>Defaults: the lease's TTL is {@link TopologyAdminOptions#initLockTtl()} (at least 2 s),
 * renewed every third of it. The calling thread waits for every call, each bounded by the request
 * timeout. Thread-safe (one lock per {@link #run} call).
 */
final class InitLockProtocol {

  private static final Logger LOG = LoggerFactory.getLogger(TopologyAdmin.class);

  /** The key under the root that an init in progress holds: {@code <root>/init-lock}. */
  static final String INIT_LOCK = "init-lock";

  private final TopologyKeys keys;
  private final TopologyAdminOptions adminOptions;
  private final Client client;
  private final KV kv;
  private final long timeoutNanos;
  private final AdminTransactions transactions;

  InitLockProtocol(
      TopologyKeys keys,
      TopologyAdminOptions adminOptions,
      Client client,
      AdminTransactions transactions) {
    this.keys = keys;
    this.adminOptions = adminOptions;
    this.client = client;
    this.kv = client.getKVClient();
    this.timeoutNanos = transactions.timeoutNanos();
    this.transactions = transactions;
  }

  /** {@code <root>/init-lock}. */
  static String lockKey(TopologyKeys keys) {
    return keys.rootPrefix() + INIT_LOCK;
  }

  /**
   * Writes an init plan with the protocol.
   *
   * @throws TopologyAdminException with {@link Reason#ALREADY_INITIALISED}, {@link
   *     Reason#INIT_IN_PROGRESS}, {@link Reason#INIT_INTERRUPTED}, {@link Reason#REJECTED} or
   *     {@link Reason#OUTCOME_UNKNOWN}
   */
  TopologyAdminResult run(TopologyAdminPlan plan, Progress progress) {
    TopologyAdminWrites.InitBatches batches =
        TopologyAdminWrites.initBatches(
            plan.writes(),
            keys,
            adminOptions.maxOperationsPerTransaction(),
            adminOptions.maxBytesPerTransaction());
    int transactionCount = batches.transactions();
    String operation = plan.plan().operation();
    ByteSequence lockKey = EtcdCalls.bytes(lockKey(keys));
    ByteSequence lockValue = ByteSequence.from(lockValue());
    ByteSequence metaKey = EtcdCalls.bytes(keys.meta());
    long ttlSeconds = Math.max(2, adminOptions.initLockTtl().toSeconds());
    Lease leases = client.getLeaseClient();
    long leaseId =
        transactions
            .read(leases.grant(ttlSeconds), "granting a lease for " + lockKey(keys))
            .getID();
    boolean succeeded = false;
    try {
      // 1. Claim: only if there is no meta and no other init; remove an interrupted init's keys.
      TxnResponse claim =
          transactions.commit(
              kv.txn()
                  .If(
                      new Cmp(metaKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)),
                      new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                  .Then(
                      Op.put(lockKey, lockValue, PutOption.builder().withLeaseId(leaseId).build()),
                      Op.delete(
                          EtcdCalls.bytes(keys.nodesPrefix()),
                          DeleteOption.builder().isPrefix(true).build()),
                      Op.delete(
                          EtcdCalls.bytes(keys.shardsPrefix()),
                          DeleteOption.builder().isPrefix(true).build()))
                  .Else(Op.get(metaKey, GetOption.DEFAULT), Op.get(lockKey, GetOption.DEFAULT)),
              operation,
              plan.readRevision(),
              0,
              transactionCount,
              true);
      if (!claim.isSucceeded()) {
        throw claimRefused(claim, leases);
      }
      long leftovers = 0;
      for (DeleteResponse deleted : claim.getDeleteResponses()) {
        leftovers += deleted.getDeleted();
      }
      long last = claim.getHeader().getRevision();
      List<Long> revisions = new ArrayList<>();
      revisions.add(last);
      LOG.info(
          "cluster '{}': init holds {} at revision {}{}",
          keys.cluster(),
          lockKey(keys),
          last,
          leftovers == 0 ? "" : " and deleted " + leftovers + " keys left by an interrupted init");
      progress.committed(1, transactionCount, last);
      long renewedAt = System.nanoTime();
      long renewEvery = adminOptions.initLockTtl().toNanos() / 3;
      Cmp stillOurs = new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.value(lockValue));

      // 2. Batches, each only while the lock is ours.
      int index = 1;
      for (List<KeyWrite> batch : batches.middle()) {
        renewedAt = renewIfDue(leases, leaseId, renewedAt, renewEvery);
        TxnResponse response =
            transactions.commit(
                kv.txn().If(stillOurs).Then(puts(batch)),
                operation,
                plan.readRevision(),
                index,
                transactionCount,
                true);
        if (!response.isSucceeded()) {
          throw transactions.initInterrupted(index, transactionCount, last);
        }
        last = response.getHeader().getRevision();
        revisions.add(last);
        index++;
        progress.committed(index, transactionCount, last);
      }

      // 3. Last: the rest, meta, and the lock released, in one revision.
      renewIfDue(leases, leaseId, renewedAt, renewEvery);
      List<Op> finalOperations = new ArrayList<>(List.of(puts(batches.last())));
      finalOperations.add(
          Op.put(
              metaKey,
              ByteSequence.from(TopologyAdminWrites.metaValue(plan.metadata())),
              PutOption.DEFAULT));
      finalOperations.add(Op.delete(lockKey, DeleteOption.DEFAULT));
      TxnResponse response =
          transactions.commit(
              kv.txn()
                  .If(stillOurs, new Cmp(metaKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                  .Then(finalOperations.toArray(Op[]::new))
                  .Else(Op.get(metaKey, GetOption.DEFAULT)),
              operation,
              plan.readRevision(),
              index,
              transactionCount,
              true);
      if (!response.isSucceeded()) {
        List<KeyValue> meta = response.getGetResponses().get(0).getKvs();
        if (!meta.isEmpty()) {
          throw transactions.alreadyInitialised(meta.get(0).getCreateRevision());
        }
        throw transactions.initInterrupted(index, transactionCount, last);
      }
      last = response.getHeader().getRevision();
      revisions.add(last);
      succeeded = true;
      LOG.info(
          "cluster '{}' initialised at revision {}: {} shards, {} nodes, {} transactions",
          keys.cluster(),
          last,
          plan.metadata().shards(),
          plan.nodeChanges().size(),
          transactionCount);
      progress.committed(transactionCount, transactionCount, last);
      return new TopologyAdminResult(
          keys.cluster(),
          operation,
          plan.mapRevision(),
          last,
          revisions,
          plan.keysToWrite(),
          leftovers);
    } finally {
      // On success the lock is already deleted; on failure this releases it at once.
      revokeQuietly(leases, leaseId, succeeded);
    }
  }

  private Op[] puts(List<KeyWrite> batch) {
    Op[] operations = new Op[batch.size()];
    for (int i = 0; i < batch.size(); i++) {
      operations[i] = EtcdCalls.operation(batch.get(i));
    }
    return operations;
  }

  private long renewIfDue(Lease leases, long leaseId, long renewedAt, long renewEvery) {
    long now = System.nanoTime();
    if (now - renewedAt < renewEvery) {
      return renewedAt;
    }
    try {
      leases.keepAliveOnce(leaseId).get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopologyAdminException(
          Reason.OUTCOME_UNKNOWN,
          0,
          "init of cluster '" + keys.cluster() + "' was interrupted; it is not initialised",
          e);
    } catch (ExecutionException | TimeoutException e) {
      // The next transaction's token compare tells whether the lock is still ours.
      LOG.warn(
          "cluster '{}': renewing the init lock's lease failed: {}",
          keys.cluster(),
          EtcdClients.describe(e));
    }
    return now;
  }

  private void revokeQuietly(Lease leases, long leaseId, boolean succeeded) {
    try {
      leases.revoke(leaseId).get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      if (!succeeded) {
        LOG.warn(
            "cluster '{}': could not release {} ({}); it expires within {} s",
            keys.cluster(),
            lockKey(keys),
            EtcdClients.describe(e),
            adminOptions.initLockTtl().toSeconds());
      }
    }
  }

  private TopologyAdminException claimRefused(TxnResponse claim, Lease leases) {
    List<KeyValue> meta = claim.getGetResponses().get(0).getKvs();
    if (!meta.isEmpty()) {
      return transactions.alreadyInitialised(meta.get(0).getCreateRevision());
    }
    List<KeyValue> lock = claim.getGetResponses().get(1).getKvs();
    long revision = lock.isEmpty() ? claim.getHeader().getRevision() : lock.get(0).getModRevision();
    String holder = lock.isEmpty() ? "?" : lock.get(0).getValue().toString(StandardCharsets.UTF_8);
    String expiry;
    if (lock.isEmpty()) {
      expiry = "";
    } else if (lock.get(0).getLease() == 0) {
      expiry = "; it has no lease: if no init is running, delete the key";
    } else {
      expiry = "; if that init died, its lock expires" + remainingTtl(leases, lock.get(0));
    }
    return new TopologyAdminException(
        Reason.INIT_IN_PROGRESS,
        revision,
        "cluster '"
            + keys.cluster()
            + "' is being initialised by another init: "
            + lockKey(keys)
            + " was written at revision "
            + revision
            + " by "
            + holder
            + expiry,
        null);
  }

  private String remainingTtl(Lease leases, KeyValue lock) {
    try {
      long ttl =
          leases
              .timeToLive(lock.getLease(), LeaseOption.DEFAULT)
              .get(timeoutNanos, TimeUnit.NANOSECONDS)
              .getTTL();
      return ttl > 0 ? " within " + ttl + " s" : " at once";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return " with its lease";
    } catch (ExecutionException | TimeoutException e) {
      return " with its lease";
    }
  }

  private byte[] lockValue() {
    String token = UUID.randomUUID().toString();
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException | SecurityException e) {
      host = "unknown";
    }
    String finalHost = host;
    long pid = ProcessHandle.current().pid();
    String since = Instant.now().toString();
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeStringField("token", token);
          generator.writeStringField("host", finalHost);
          generator.writeNumberField("pid", pid);
          generator.writeStringField("since", since);
          generator.writeEndObject();
        });
  }
}
