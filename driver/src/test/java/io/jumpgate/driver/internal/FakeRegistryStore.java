package io.jumpgate.driver.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/** etcd as a {@link ClientRegistration} sees it, in memory; answers at once unless told not to. */
final class FakeRegistryStore implements RegistryStore {

  /** One put, as etcd got it. */
  record Put(String key, String value, long lease, long nanoTime) {}

  private final LongSupplier clock;
  final List<Put> puts = new ArrayList<>();
  final Set<Long> liveLeases = new HashSet<>();
  final List<Long> revoked = new ArrayList<>();
  final Map<Long, KeepAliveListener> keepAlives = new HashMap<>();
  final List<CompletableFuture<Long>> pendingGrants = new ArrayList<>();
  int grants;
  int failingGrants;
  int hangingGrants;
  int failingPuts;
  int timeToLives;
  int failingTimeToLives;
  boolean hangingRevokes;
  boolean closed;
  private long nextLease = 100;

  FakeRegistryStore(LongSupplier clock) {
    this.clock = clock;
  }

  @Override
  public CompletableFuture<Long> grant(long ttlSeconds) {
    grants++;
    if (failingGrants > 0) {
      failingGrants--;
      return CompletableFuture.failedFuture(new RuntimeException("UNAVAILABLE: etcd is down"));
    }
    if (hangingGrants > 0) {
      hangingGrants--;
      CompletableFuture<Long> pending = new CompletableFuture<>();
      pendingGrants.add(pending);
      return pending;
    }
    long lease = nextLease++;
    liveLeases.add(lease);
    return CompletableFuture.completedFuture(lease);
  }

  /** A lease granted later by hand (for a grant that hung). */
  long newLease() {
    long lease = nextLease++;
    liveLeases.add(lease);
    return lease;
  }

  @Override
  public CompletableFuture<Void> put(String key, byte[] value, long leaseId) {
    if (failingPuts > 0) {
      failingPuts--;
      return CompletableFuture.failedFuture(new RuntimeException("UNAVAILABLE: etcd is down"));
    }
    if (!liveLeases.contains(leaseId)) {
      return CompletableFuture.failedFuture(
          new RuntimeException("NOT_FOUND: etcdserver: requested lease not found"));
    }
    puts.add(new Put(key, new String(value, StandardCharsets.UTF_8), leaseId, clock.getAsLong()));
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public AutoCloseable keepAlive(long leaseId, KeepAliveListener listener) {
    keepAlives.put(leaseId, listener);
    return () -> keepAlives.remove(leaseId, listener);
  }

  @Override
  public CompletableFuture<Long> timeToLive(long leaseId) {
    timeToLives++;
    if (failingTimeToLives > 0) {
      failingTimeToLives--;
      return CompletableFuture.failedFuture(new RuntimeException("UNAVAILABLE: etcd is down"));
    }
    return CompletableFuture.completedFuture(liveLeases.contains(leaseId) ? 10L : -1L);
  }

  @Override
  public CompletableFuture<Void> revoke(long leaseId) {
    revoked.add(leaseId);
    if (hangingRevokes) {
      return new CompletableFuture<>();
    }
    liveLeases.remove(leaseId);
    keepAlives.remove(leaseId);
    return CompletableFuture.completedFuture(null);
  }

  /**
   * The lease goes away in etcd, and its keep-alive says so: with etcd's "not found" error, or with
   * null as jetcd's {@code onCompleted} after no answer for a whole TTL.
   */
  void loseLease(long leaseId, Throwable error) {
    liveLeases.remove(leaseId);
    KeepAliveListener listener = keepAlives.remove(leaseId);
    if (listener == null) {
      return;
    }
    if (error != null) {
      listener.leaseGone(error);
    } else {
      listener.keepAliveBroken(null);
    }
  }

  /**
   * The keep-alive stream breaks (etcd restarted, a GOAWAY, a reset) while the lease lives on in
   * etcd; jetcd keeps the lease on its list and opens the stream again by itself.
   */
  void breakKeepAlive(long leaseId, Throwable error) {
    KeepAliveListener listener = keepAlives.get(leaseId);
    if (listener != null) {
      listener.keepAliveBroken(error);
    }
  }

  @Override
  public void close() {
    closed = true;
  }

  Put lastPut() {
    return puts.get(puts.size() - 1);
  }
}
