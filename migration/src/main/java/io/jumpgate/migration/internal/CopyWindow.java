package io.jumpgate.migration.internal;

import io.jumpgate.migration.MigrationException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The batches in flight, at most {@code depth}: submitting one more first waits (bounded) for the
 * oldest. Each batch's keys are released in {@link PendingKeys} when it has answered, on the thread
 * that waits, never on a Netty thread.
 *
 * <p>Not thread-safe: owned by the phase thread.
 */
public final class CopyWindow {

  /** A batch whose answer has come. */
  public record Finished(List<RoutedKey> keys, boolean recopy, BatchCopier.Outcome outcome) {}

  private record Flight(
      List<RoutedKey> keys, boolean recopy, CompletableFuture<BatchCopier.Outcome> answer) {}

  private final int depth;
  private final Duration timeout;
  private final PendingKeys pendingKeys;
  private final Consumer<Finished> onFinished;
  private final ArrayDeque<Flight> flights = new ArrayDeque<>();

  public CopyWindow(
      int depth, Duration timeout, PendingKeys pendingKeys, Consumer<Finished> onFinished) {
    this.depth = depth;
    this.timeout = timeout;
    this.pendingKeys = pendingKeys;
    this.onFinished = onFinished;
  }

  /**
   * Adds a batch just dispatched; then, if more than {@code depth} are in flight, waits for the
   * oldest.
   */
  public void add(
      List<RoutedKey> keys, boolean recopy, CompletableFuture<BatchCopier.Outcome> answer) {
    flights.add(new Flight(keys, recopy, answer));
    if (flights.size() > depth) {
      awaitOldest();
    }
  }

  public boolean isEmpty() {
    return flights.isEmpty();
  }

  /** Waits for the oldest batch and releases its keys. */
  public void awaitOldest() {
    Flight flight = flights.peek();
    if (flight == null) {
      return;
    }
    BatchCopier.Outcome outcome;
    try {
      outcome =
          Await.result(
              flight.answer(), timeout, "copy of a batch of " + flight.keys().size() + " keys");
    } catch (MigrationException e) {
      abandon();
      throw e;
    }
    flights.poll();
    pendingKeys.finished(flight.keys());
    onFinished.accept(new Finished(flight.keys(), flight.recopy(), outcome));
  }

  /** Waits for every batch in flight. */
  public void awaitAll() {
    while (!flights.isEmpty()) {
      awaitOldest();
    }
  }

  /** After a failure: every key in flight goes back to pending, so a later copy covers it. */
  private void abandon() {
    List<RoutedKey> keys = new ArrayList<>();
    for (Flight flight : flights) {
      keys.addAll(flight.keys());
    }
    flights.clear();
    pendingKeys.failed(keys);
  }
}
