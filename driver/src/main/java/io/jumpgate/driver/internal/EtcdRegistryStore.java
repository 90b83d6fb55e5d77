package io.jumpgate.driver.internal;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link RegistryStore} over a jetcd client of its own.
 *
 * <p>jetcd's keep-alive sends a request every third of the TTL on one stream shared by all leases.
 * It tells its observer {@code onError} with {@code NOT_FOUND} when etcd answers that the lease is
 * not known (revoked, expired): {@link KeepAliveListener#leaseGone}. It tells {@code onError} with
 * another error when the shared stream breaks (etcd restarted or out of reach, a GOAWAY, a reset),
 * and then opens the stream again by itself after 500 ms and goes on keeping the lease alive: a
 * healthy lease survives that, so it is only {@link KeepAliveListener#keepAliveBroken}. It tells
 * {@code onCompleted} when no answer came for a whole TTL, reckoned on this side, and stops keeping
 * the lease alive: the lease has probably expired in etcd, but etcd also renews every lease when it
 * restarts, so that too is only {@link KeepAliveListener#keepAliveBroken}, and the registration
 * asks etcd before it takes a new lease.
 *
 * <p>Thread-safe.
 */
final class EtcdRegistryStore implements RegistryStore {

  private final Client client;

  EtcdRegistryStore(Client client) {
    this.client = client;
  }

  @Override
  public CompletableFuture<Long> grant(long ttlSeconds) {
    return client.getLeaseClient().grant(ttlSeconds).thenApply(LeaseGrantResponse::getID);
  }

  @Override
  public CompletableFuture<Void> put(String key, byte[] value, long leaseId) {
    return client
        .getKVClient()
        .put(
            ByteSequence.from(key, StandardCharsets.UTF_8),
            ByteSequence.from(value),
            PutOption.builder().withLeaseId(leaseId).build())
        .thenApply(response -> null);
  }

  @Override
  public AutoCloseable keepAlive(long leaseId, KeepAliveListener listener) {
    AtomicBoolean ended = new AtomicBoolean();
    CloseableClient handle =
        client
            .getLeaseClient()
            .keepAlive(
                leaseId,
                new StreamObserver<LeaseKeepAliveResponse>() {
                  @Override
                  public void onNext(LeaseKeepAliveResponse response) {
                    // alive
                  }

                  @Override
                  public void onError(Throwable error) {
                    if (ended.get()) {
                      return;
                    }
                    if (!isLeaseNotFound(error)) {
                      listener.keepAliveBroken(error);
                    } else if (ended.compareAndSet(false, true)) {
                      listener.leaseGone(error);
                    }
                  }

                  @Override
                  public void onCompleted() {
                    if (ended.compareAndSet(false, true)) {
                      listener.keepAliveBroken(null);
                    }
                  }
                });
    return handle::close;
  }

  @Override
  public CompletableFuture<Long> timeToLive(long leaseId) {
    return client
        .getLeaseClient()
        .timeToLive(leaseId, LeaseOption.DEFAULT)
        .thenApply(LeaseTimeToLiveResponse::getTTL);
  }

  @Override
  public CompletableFuture<Void> revoke(long leaseId) {
    return client.getLeaseClient().revoke(leaseId).thenApply(response -> null);
  }

  @Override
  public void close() {
    client.close();
  }

  /** etcd's answer for a lease it does not know, whichever way jetcd wraps it. */
  static boolean isLeaseNotFound(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof EtcdException etcd && etcd.getErrorCode() == ErrorCode.NOT_FOUND) {
        return true;
      }
      String message = cause.getMessage();
      if (message != null && message.contains("requested lease not found")) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }
}
