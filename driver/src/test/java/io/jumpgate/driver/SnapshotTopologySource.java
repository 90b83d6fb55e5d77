package io.jumpgate.driver;

import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The in-memory topology source of the driver's unit tests: it serves the snapshot it was given,
 * and {@link #publish} hands the next one to the subscribers on the calling thread, as the driver's
 * topology thread would. Subclasses only build snapshots.
 *
 * <p>Thread-safe.
 */
abstract class SnapshotTopologySource implements TopologySource {

  private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
  private final String description;
  private volatile TopologySnapshot current;

  SnapshotTopologySource(String description, TopologySnapshot first) {
    this.description = description;
    this.current = first;
  }

  /** Publishes the next snapshot to every subscriber, on this thread. */
  final synchronized void publish(TopologySnapshot next) {
    TopologySnapshot previous = current;
    current = next;
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(previous, next);
    }
  }

  @Override
  public final CompletionStage<TopologySnapshot> start() {
    TopologySnapshot first = current;
    for (TopologyListener listener : listeners) {
      listener.onTopologyChange(null, first);
    }
    return CompletableFuture.completedFuture(first);
  }

  @Override
  public final TopologySnapshot current() {
    return current;
  }

  @Override
  public final AutoCloseable subscribe(TopologyListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public final TopologySourceStatus status() {
    return new TopologySourceStatus(true, current.revision(), Instant.now(), null);
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public void close() {}
}
