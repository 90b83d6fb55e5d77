package io.jumpgate.migration.internal;

import io.jumpgate.topology.ClientRegistrySnapshot;
import io.jumpgate.topology.RegisteredClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The latest client registry a watch delivered ({@code MigrationStore#watchClients}), and waits on
 * it without polling: a waiter sleeps until the watch hands a new registry or its bound passes.
 *
 * <p>Thread-safe: {@link #accept} runs on the watch's thread and never blocks; waiters run on the
 * mover's thread.
 */
public final class RegistryTracker implements Consumer<ClientRegistrySnapshot> {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private ClientRegistrySnapshot latest;
  private long updates;

  @Override
  public void accept(ClientRegistrySnapshot snapshot) {
    lock.lock();
    try {
      latest = snapshot;
      updates++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The latest registry, or null before the watch's first listing. */
  public ClientRegistrySnapshot latest() {
    lock.lock();
    try {
      return latest;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A registry and its update number, read together.
   *
   * @param update how many registries had been delivered (pass it to {@link #awaitChange})
   * @param snapshot the latest registry, or null before the first listing
   */
  public record Observed(long update, ClientRegistrySnapshot snapshot) {}

  /** The latest registry with its update number. */
  public Observed observe() {
    lock.lock();
    try {
      return new Observed(updates, latest);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until a registry newer than update number {@code seen} arrives or {@code deadlineNanos}
   * (of {@link System#nanoTime()}) passes, and returns the latest (possibly the same).
   */
  public Observed awaitChange(long seen, long deadlineNanos) throws InterruptedException {
    lock.lock();
    try {
      while (updates == seen) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          break;
        }
        changed.awaitNanos(left);
      }
      return new Observed(updates, latest);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The registrations that hold up a cutover frozen at {@code frozenAt}: {@code drained} below it,
   * absent, or undecodable. With {@code force}, a valid registration without {@code drained} (a
   * driver that does not take part) is not counted.
   */
  public static List<RegisteredClient> notDrained(
      ClientRegistrySnapshot snapshot, long frozenAt, boolean force) {
    List<RegisteredClient> waiting = new ArrayList<>();
    for (RegisteredClient client : snapshot.notDrained(frozenAt)) {
      if (force && client.drained().isEmpty() && client.invalidReason() == null) {
        continue;
      }
      waiting.add(client);
    }
    return waiting;
  }

  /** A short description of a registration that has not acknowledged, for a report. */
  public static String describe(RegisteredClient client, long frozenAt) {
    if (client.invalidReason() != null) {
      return "client '"
          + client.clientId()
          + "': registration does not decode ("
          + client.invalidReason()
          + ")";
    }
    if (client.drained().isEmpty()) {
      return "client '"
          + client.clientId()
          + "' (host "
          + client.host()
          + ", pid "
          + client.pid()
          + ") has no 'drained': it does not take part in migrations";
    }
    return "client '"
        + client.clientId()
        + "' (host "
        + client.host()
        + ", pid "
        + client.pid()
        + ") acknowledged revision "
        + client.drained().getAsLong()
        + ", below the freeze at "
        + frozenAt;
  }
}
