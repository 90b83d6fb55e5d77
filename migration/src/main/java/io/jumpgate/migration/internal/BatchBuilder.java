package io.jumpgate.migration.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a stream of keys into batches of a fixed size; the last batch may be smaller.
 *
 * <p>Not thread-safe: one per scan, used by the thread that scans.
 */
public final class BatchBuilder {

  private final int batchSize;
  private List<RoutedKey> current;

  public BatchBuilder(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, was " + batchSize);
    }
    this.batchSize = batchSize;
    this.current = new ArrayList<>(batchSize);
  }

  /** Adds a key; returns the batch it completes, or null if the batch is not full yet. */
  public List<RoutedKey> add(RoutedKey key) {
    current.add(key);
    if (current.size() < batchSize) {
      return null;
    }
    return flush();
  }

  /** The keys added since the last full batch (possibly none); starts a new batch. */
  public List<RoutedKey> flush() {
    List<RoutedKey> batch = current;
    current = new ArrayList<>(batchSize);
    return batch;
  }
}
