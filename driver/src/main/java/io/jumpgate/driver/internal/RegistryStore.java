package io.jumpgate.driver.internal;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The etcd calls a {@link ClientRegistration} makes. Calls never block: they return at once with a
 * future that the store's own threads complete (the registration bounds each with its timeout). An
 * interface so that tests can stand in for etcd.
 *
 * <p>Thread-safe.
 */
interface RegistryStore {

  /** Grants a lease; completes with its id. */
  CompletableFuture<Long> grant(long ttlSeconds);

  /** Puts a key bound to a lease. */
  CompletableFuture<Void> put(String key, byte[] value, long leaseId);

  /**
   * Keeps a lease alive until the returned handle is closed. {@code lost} is told (on a store
   * thread, at most once) when the lease is gone or can no longer be kept alive: with the error, or
   * with null when the keep-alive ended because the lease expired.
   */
  AutoCloseable keepAlive(long leaseId, Consumer<Throwable> lost);

  /** Revokes a lease, deleting the keys bound to it. */
  CompletableFuture<Void> revoke(long leaseId);

  /** Releases the store's connections; may block briefly, so never call it on a store thread. */
  void close();
}
