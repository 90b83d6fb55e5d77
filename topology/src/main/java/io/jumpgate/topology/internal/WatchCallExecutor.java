package io.jumpgate.topology.internal;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

/**
 * A gRPC client interceptor that runs the callbacks of etcd's watch streams ({@value
 * #WATCH_METHOD}) on a given executor instead of gRPC's shared {@code grpc-default-executor}: gRPC
 * then hands each watch message from its Netty event loop straight to that executor, where it
 * parses the protobuf and calls jetcd's watcher, which calls the topology source's listener. For an
 * {@code EtcdTopologySource} that owns its jetcd client, the executor is its single topology
 * thread: one thread hop per watch message instead of two (Netty, then gRPC's executor, then the
 * topology thread).
 *
 * <p>Every other call of the client (get, put, lease, the cluster listing) keeps gRPC's executor: a
 * topology-thread task that waited for one of their answers must not need the topology thread to
 * deliver it. (The topology source never waits for an answer on its thread; it chains callbacks.)
 *
 * <p>Once the executor refuses work (the source is closed and its thread shut down), callbacks of
 * calls still open, such as the cancellation of the last watch, run on {@link
 * ForkJoinPool#commonPool()} instead: never on the Netty event loop, and never lost with an
 * exception thrown into gRPC's transport.
 *
 * <p>Thread-safe and stateless beyond the executor; one per jetcd client. gRPC runs one call's
 * callbacks one at a time and in order on the executor (its {@code SerializingExecutor}).
 */
public final class WatchCallExecutor implements ClientInterceptor {

  /** The full gRPC name of etcd's watch method: the only method whose calls are redirected. */
  public static final String WATCH_METHOD = "etcdserverpb.Watch/Watch";

  private final Executor callbacks;

  /**
   * @param executor where the watch calls' callbacks run while it accepts work
   */
  public WatchCallExecutor(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    this.callbacks = new FallbackOnRejection(executor);
  }

  @Override
  public <RequestT, ResponseT> ClientCall<RequestT, ResponseT> interceptCall(
      MethodDescriptor<RequestT, ResponseT> method, CallOptions callOptions, Channel next) {
    if (WATCH_METHOD.equals(method.getFullMethodName())) {
      return next.newCall(method, callOptions.withExecutor(callbacks));
    }
    return next.newCall(method, callOptions);
  }

  /** The executor gRPC gets: the given one, or the common pool once the given one refuses. */
  private record FallbackOnRejection(Executor primary) implements Executor {
    @Override
    public void execute(Runnable task) {
      try {
        primary.execute(task);
      } catch (RejectedExecutionException closed) {
        ForkJoinPool.commonPool().execute(task);
      }
    }
  }
}
