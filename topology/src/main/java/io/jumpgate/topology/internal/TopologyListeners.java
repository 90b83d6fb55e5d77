package io.jumpgate.topology.internal;

import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologySnapshot;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one topology source.
 *
 * <p>{@link #add} and the handle it returns may be used from any thread. {@link #notifyChange} is
 * called by the source on its topology thread; it calls the listeners in the order they were added,
 * and an exception from one is logged (WARN) and does not stop the others. After {@link #close()}
 * no listener is called again and {@link #add} registers nothing.
 */
public final class TopologyListeners {

  private static final Logger LOG = LoggerFactory.getLogger(TopologyListeners.class);

  private final String sourceDescription;
  private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  /**
   * @param sourceDescription what the source reads, for log messages; never a credential
   */
  public TopologyListeners(String sourceDescription) {
    this.sourceDescription = Objects.requireNonNull(sourceDescription, "sourceDescription");
  }

  /**
   * Registers a listener for every snapshot notified after this call.
   *
   * @return a handle whose {@code close()} removes the listener; idempotent
   */
  public AutoCloseable add(TopologyListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (closed) {
      return () -> {};
    }
    // a wrapper per registration, so that the same listener added twice is removed once per handle
    TopologyListener registration = listener::onTopologyChange;
    listeners.add(registration);
    return () -> listeners.remove(registration);
  }

  /** Calls every listener with the change; does nothing once closed. */
  public void notifyChange(TopologySnapshot previous, TopologySnapshot current) {
    for (TopologyListener listener : listeners) {
      if (closed) {
        return;
      }
      try {
        listener.onTopologyChange(previous, current);
      } catch (Exception e) {
        LOG.warn(
            "a topology listener of {} failed on revision {}; later listeners and revisions are"
                + " still notified",
            sourceDescription,
            current.revision(),
            e);
      }
    }
  }

  /** How many listeners are registered. */
  public int size() {
    return listeners.size();
  }

  /** Removes every listener; no listener is called after this returns (except one running). */
  public void close() {
    closed = true;
    listeners.clear();
  }
}
