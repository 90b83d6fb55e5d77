package io.jumpgate.driver.internal;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@link RegistryStore} over a jetcd client of its own.
 *
 * <p>jetcd's keep-alive sends a request every third of the TTL. It tells its observer {@code
 * onError} when etcd answers that the lease is not found (revoked, expired) or when the stream
 * breaks, and {@code onCompleted} when no answer came for a whole TTL (the lease has expired in
 * etcd): each counts as lost here, and the registration takes a new lease.
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
  public AutoCloseable keepAlive(long leaseId, Consumer<Throwable> lost) {
    AtomicBoolean told = new AtomicBoolean();
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
                    if (told.compareAndSet(false, true)) {
                      lost.accept(error);
                    }
                  }

                  @Override
                  public void onCompleted() {
                    if (told.compareAndSet(false, true)) {
                      lost.accept(null);
                    }
                  }
                });
    return handle::close;
  }

  @Override
  public CompletableFuture<Void> revoke(long leaseId) {
    return client.getLeaseClient().revoke(leaseId).thenApply(response -> null);
  }

  @Override
  public void close() {
    client.close();
  }
}
