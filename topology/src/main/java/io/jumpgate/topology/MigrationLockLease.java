package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import io.jumpgate.spi.MigrationLock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's migration lock, held: {@code <root>/migration-lock} bound to an etcd lease that
 * this object keeps alive until {@link #close()}. Made by {@link MigrationStore#acquireLock}.
 *
 * <p>Keep-alive: jetcd renews the lease about every third of its time to live. When the keep-alive
 * stream breaks or ends, this lease asks etcd (bounded by the request timeout) whether the lease
 * still lives: if so it keeps it alive again, if etcd says it is gone, or cannot say so for longer
 * than the time to live since the last renewal, the lock is <em>lost</em>: {@link #lost()}
 * completes and {@link #isHeld()} turns false. A mover that lost its lock must stop: clients serve
 * its frozen shards from the old leaders again, and its freezes and cutovers, which compare the
 * lock's create revision, can no longer succeed.
 *
 * <p>Threading: thread-safe. The keep-alive is handled on a daemon thread of this lease ({@code
 * jumpgate-migration-lock-<cluster>}), never on a jetcd thread; {@link #lost()} completes there, so
 * do not block in its callbacks. {@link #close()} blocks up to the request timeout.
 */
public final class MigrationLockLease implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MigrationLockLease.class);

  private final Client client;
  private final EtcdCalls calls;
  private final TopologyKeys keys;
  private final MigrationLock lock;
  private final long leaseId;
  private final long ttlNanos;
  private final ScheduledThreadPoolExecutor thread;
  private final CompletableFuture<Void> lost = new CompletableFuture<>();

  // Confined to the lease's thread.
  private CloseableClient keepAlive;
  private long generation;
  private long lastRenewed;
  private volatile boolean released;

  private MigrationLockLease(
      Client client,
      EtcdCalls calls,
      TopologyKeys keys,
      MigrationLock lock,
      long leaseId,
      long ttl) {
    this.client = client;
    this.calls = calls;
    this.keys = keys;
    this.lock = lock;
    this.leaseId = leaseId;
    this.ttlNanos = TimeUnit.SECONDS.toNanos(ttl);
    this.thread =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread named = new Thread(runnable, "jumpgate-migration-lock-" + keys.cluster());
              named.setDaemon(true);
              return named;
            });
    thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.lastRenewed = System.nanoTime();
  }

  static MigrationLockLease acquire(
      Client client, EtcdCalls calls, TopologyKeys keys, MigrationLock wanted, long ttlSeconds) {
    Lease leases = client.getLeaseClient();
    String key = keys.migrationLock();
    long leaseId = calls.read(leases.grant(ttlSeconds), "granting a lease for " + key).getID();
    boolean taken = false;
    try {
      ByteSequence keyBytes = EtcdCalls.bytes(key);
      TxnResponse response =
          calls.commit(
              client
                  .getKVClient()
                  .txn()
                  .If(new Cmp(keyBytes, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                  .Then(
                      Op.put(
                          keyBytes,
                          ByteSequence.from(MigrationCodec.encodeLock(wanted)),
                          PutOption.builder().withLeaseId(leaseId).build()))
                  .Else(Op.get(keyBytes, GetOption.DEFAULT)),
              "taking " + key + " for migration '" + wanted.migrationId() + "'",
              "",
              ": it may or may not have been taken; its lease is revoked, so it goes either way",
              0,
              true);
      if (!response.isSucceeded()) {
        throw held(keys, response, calls, leases);
      }
      long created = response.getHeader().getRevision();
      MigrationLock lock =
          new MigrationLock(wanted.migrationId(), wanted.owner(), wanted.since(), created);
      MigrationLockLease lease =
          new MigrationLockLease(client, calls, keys, lock, leaseId, ttlSeconds);
      lease.thread.execute(lease::keepAlive);
      taken = true;
      LOG.info(
          "cluster '{}': {} taken by '{}' for migration '{}' at revision {} (lease {}, {} s)",
          keys.cluster(),
          key,
          wanted.owner(),
          wanted.migrationId(),
          created,
          Long.toHexString(leaseId),
          ttlSeconds);
      return lease;
    } finally {
      if (!taken) {
        revokeQuietly(leases, leaseId, calls);
      }
    }
  }

  private static MigrationLockHeldException held(
      TopologyKeys keys, TxnResponse response, EtcdCalls calls, Lease leases) {
    List<KeyValue> found = response.getGetResponses().get(0).getKvs();
    long revision = response.getHeader().getRevision();
    if (found.isEmpty()) {
      // Deleted between the compare and the get of the same transaction: cannot happen.
      return new MigrationLockHeldException(
          revision, null, keys.migrationLock() + " is held; try again");
    }
    KeyValue value = found.get(0);
    String expiry =
        value.getLease() == 0
            ? "; it has no lease: if no mover is running, delete the key"
            : "; if that mover died, the lock expires" + remaining(leases, value.getLease(), calls);
    try {
      MigrationLock holder =
          MigrationCodec.decodeLock(value.getValue().getBytes(), value.getCreateRevision());
      return new MigrationLockHeldException(
          revision,
          holder,
          "the migration lock "
              + keys.migrationLock()
              + " is held by '"
              + holder.owner()
              + "' for migration '"
              + holder.migrationId()
              + "' since "
              + holder.since()
              + " (create revision "
              + holder.createRevision()
              + ")"
              + expiry);
    } catch (TopologyEntryException e) {
      return new MigrationLockHeldException(
          revision,
          null,
          "the migration lock "
              + keys.migrationLock()
              + " is held (create revision "
              + value.getCreateRevision()
              + ") with a value that does not decode ("
              + e.getMessage()
              + "): "
              + TopologyJson.excerpt(value.getValue().toString(StandardCharsets.UTF_8))
              + expiry);
    }
  }

  private static String remaining(Lease leases, long leaseId, EtcdCalls calls) {
    try {
      long ttl =
          leases
              .timeToLive(leaseId, LeaseOption.DEFAULT)
              .get(calls.timeoutNanos(), TimeUnit.NANOSECONDS)
              .getTTL();
      return ttl > 0 ? " within " + ttl + " s" : " at once";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return " with its lease";
    } catch (ExecutionException | TimeoutException e) {
      return " with its lease";
    }
  }

  /** The lock as written, with its create revision: what freezes and cutovers compare. */
  public MigrationLock lock() {
    return lock;
  }

  /** The etcd lease the lock is bound to. */
  public long leaseId() {
    return leaseId;
  }

  /** Whether the lock is still held: neither lost nor released. */
  public boolean isHeld() {
    return !released && !lost.isDone();
  }

  /**
   * Completes (on the lease's thread) when the lease is lost: etcd says it is gone, or could not
   * say it lives for longer than its time to live. Does not complete on {@link #close()}.
   */
  public CompletionStage<Void> lost() {
    return lost.copy();
  }

  /**
   * Releases the lock: stops the keep-alive and revokes the lease, which deletes the key; bounded
   * by the request timeout (if the revoke gets no answer, the lock expires with its lease).
   * Idempotent.
   */
  @Override
  public void close() {
    if (released) {
      return;
    }
    released = true;
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    try {
      thread.execute(
          () -> {
            stopKeepAlive();
            stopped.complete(null);
          });
      stopped.get(calls.timeoutNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException | ExecutionException | TimeoutException e) {
      // the thread is gone or stuck: the revoke below ends the lease anyway
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    thread.shutdownNow();
    revokeQuietly(client.getLeaseClient(), leaseId, calls);
    LOG.info(
        "cluster '{}': {} of migration '{}' released",
        keys.cluster(),
        keys.migrationLock(),
        lock.migrationId());
  }

  // ---- keep-alive, on the lease's thread -------------------------------------------------------

  private void keepAlive() {
    if (released || lost.isDone()) {
      return;
    }
    stopKeepAlive();
    long mine = ++generation;
    keepAlive =
        client
            .getLeaseClient()
            .keepAlive(
                leaseId,
                new StreamObserver<>() {
                  @Override
                  public void onNext(LeaseKeepAliveResponse response) {
                    long ttl = response.getTTL();
                    onThread(() -> renewed(mine, ttl));
                  }

                  @Override
                  public void onError(Throwable error) {
                    onThread(() -> broken(mine, EtcdClients.describe(error)));
                  }

                  @Override
                  public void onCompleted() {
                    onThread(() -> broken(mine, "the keep-alive ended"));
                  }
                });
  }

  private void renewed(long mine, long ttl) {
    if (mine != generation) {
      return;
    }
    if (ttl <= 0) {
      lose("etcd says lease " + Long.toHexString(leaseId) + " is gone");
      return;
    }
    lastRenewed = System.nanoTime();
  }

  private void broken(long mine, String why) {
    if (mine != generation || released || lost.isDone()) {
      return;
    }
    stopKeepAlive();
    long ttl;
    try {
      ttl =
          client
              .getLeaseClient()
              .timeToLive(leaseId, LeaseOption.DEFAULT)
              .get(calls.timeoutNanos(), TimeUnit.NANOSECONDS)
              .getTTL();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException | TimeoutException e) {
      if (System.nanoTime() - lastRenewed > ttlNanos) {
        lose(
            "the keep-alive broke ("
                + why
                + ") and etcd has not answered for longer than the lease");
      } else {
        schedule(() -> broken(generation, why), 500);
      }
      return;
    }
    if (ttl <= 0) {
      lose("the keep-alive broke (" + why + ") and etcd says the lease is gone");
      return;
    }
    lastRenewed = System.nanoTime();
    LOG.info(
        "cluster '{}': keep-alive of {} broke ({}); the lease lives, keeping it alive again",
        keys.cluster(),
        keys.migrationLock(),
        why);
    keepAlive();
  }

  private void lose(String why) {
    stopKeepAlive();
    LOG.warn(
        "cluster '{}': {} of migration '{}' is lost: {}",
        keys.cluster(),
        keys.migrationLock(),
        lock.migrationId(),
        why);
    lost.complete(null);
  }

  private void stopKeepAlive() {
    generation++;
    if (keepAlive != null) {
      try {
        keepAlive.close();
      } catch (RuntimeException e) {
        LOG.debug("closing a keep-alive failed", e);
      }
      keepAlive = null;
    }
  }

  private void onThread(Runnable action) {
    try {
      thread.execute(action);
    } catch (RejectedExecutionException closed) {
      // released
    }
  }

  private void schedule(Runnable action, long millis) {
    try {
      thread.schedule(action, millis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // released
    }
  }

  private static void revokeQuietly(Lease leases, long leaseId, EtcdCalls calls) {
    try {
      leases.revoke(leaseId).get(calls.timeoutNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn(
          "revoking lease {} failed ({}); it expires by itself",
          Long.toHexString(leaseId),
          EtcdClients.describe(e));
    }
  }
}
