package io.jumpgate.driver.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The etcd calls a {@link ClientRegistration} makes. Calls never block: they return at once with a
 * future that the store's own threads complete (the registration bounds each with its timeout). An
 * interface so that tests can stand in for etcd.
 *
 * <p>Thread-safe.
 */
interface RegistryStore {

  /** What a lease's keep-alive tells the registration, on a store thread. */
  interface KeepAliveListener {

    /**
     * etcd answered that it does not know the lease (revoked, or expired while it was out of
     * reach): the lease is gone for sure. Told at most once, and nothing is told after it.
     */
    void leaseGone(Throwable error);

    /**
     * The keep-alive broke without saying that the lease is gone: the stream failed (etcd restarted
     * or out of reach, a GOAWAY, a reset), with its error; or no answer came for a whole TTL, with
     * null. The lease may well live on; only a {@link #timeToLive} query says. May be told many
     * times while etcd is out of reach.
     */
    void keepAliveBroken(Throwable errorOrNull);
  }

  /** Grants a lease; completes with its id. */
  CompletableFuture<Long> grant(long ttlSeconds);

  /** Puts a key bound to a lease. */
  CompletableFuture<Void> put(String key, byte[] value, long leaseId);

  /** Keeps a lease alive until the returned handle is closed. */
  AutoCloseable keepAlive(long leaseId, KeepAliveListener listener);

  /**
   * The seconds a lease has left; completes with a value of 0 or less when etcd does not know the
   * lease (revoked or expired).
   */
  CompletableFuture<Long> timeToLive(long leaseId);

  /** Revokes a lease, deleting the keys bound to it. */
  CompletableFuture<Void> revoke(long leaseId);

  /** Releases the store's connections; may block briefly, so never call it on a store thread. */
  void close();
}
