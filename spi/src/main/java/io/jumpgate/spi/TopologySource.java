package io.jumpgate.spi;

import java.util.concurrent.CompletionStage;

/**
 * Where topology snapshots come from (etcd, a file, a test) and how their changes are announced.
 *
 * <p>Threading: every method may be called from any thread. {@link #current()} is a volatile read
 * that never blocks and never does I/O; the driver calls it on its hot path. A source applies
 * changes on one thread of its own and publishes each new snapshot whole, then notifies listeners
 * on that same thread, in revision order.
 *
 * <p>Lifecycle: {@link #start()} once (later calls return the same stage), {@link #close()} when
 * done. After close no listener is called again.
 */
public interface TopologySource extends AutoCloseable {

  /**
   * Starts reading and watching.
   *
   * @return a stage that completes with the first valid snapshot, or fails with a {@link
   *     TopologyException} (never hangs past the source's start timeout): {@link
   *     TopologyUnavailableException} when the store cannot be read or the cluster is not
   *     initialised, {@link IncompatibleTopologyException} when the cluster's format, routing or
   *     shard count cannot be served
   */
  CompletionStage<TopologySnapshot> start();

  /**
   * The snapshot in force.
   *
   * @throws IllegalStateException if no snapshot has been loaded yet
   */
  TopologySnapshot current();

  /**
   * Registers a listener for every snapshot published after this call.
   *
   * @return a handle whose {@code close()} removes the listener
   */
  AutoCloseable subscribe(TopologyListener listener);

  /** How current the source is; cheap, never blocks. */
  TopologySourceStatus status();

  /**
   * What the source reads, for messages and logs: endpoints or file and cluster name. Never holds a
   * credential.
   */
  String description();

  /** Stops watching and releases the source's threads and connections. Idempotent. */
  @Override
  void close();
}
