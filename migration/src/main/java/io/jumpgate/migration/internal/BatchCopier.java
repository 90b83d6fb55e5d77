package io.jumpgate.migration.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Copies one batch of keys from the source to the target.
 *
 * <p>Implementations only dispatch commands (never wait), so they may be called from any thread;
 * the stages they chain run on Netty threads and do nothing but build and dispatch the next
 * commands.
 */
public interface BatchCopier {

  /** What a batch did. */
  record Outcome(int keysWritten, long bytes) {}

  /**
   * Copies {@code keys}, each with its value and time to live, replacing what the target holds.
   *
   * @param mayBeGone the keys changed since they were listed (re-copies): a key that no longer
   *     exists on the source must end up absent on the target too
   */
  CompletableFuture<Outcome> copy(List<RoutedKey> keys, boolean mayBeGone);
}
