package io.jumpgate.migration.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys that changed on the source and must be copied again, and the keys being copied now.
 *
 * <p>The rules that make the copy end with the source's last value:
 *
 * <ul>
 *   <li>A key is copied by at most one batch at a time: {@link #claim} (the scan) and {@link
 *       #takeBatch} (the re-copies) only hand out keys that are not in flight.
 *   <li>A key that changes while it is in flight is not handed out again until its copy {@link
 *       #finished}; then it is pending again, at the end of the order. So a change that happened
 *       after the copy read the key is always followed by another copy, and a change that happened
 *       before costs at most one extra copy.
 *   <li>Pending keys come out in the order of their first change since they were last handed out.
 * </ul>
 *
 * <p>Thread-safe: every method takes this object's monitor for a short, non-blocking critical
 * section. The pub/sub thread calls {@link #changed}; the engine's phase thread calls the rest.
 */
public final class PendingKeys {

  /** A key handed out for copying, and whether its last change seen was a deletion. */
  public record Entry(RoutedKey key, boolean deleted) {}

  private static final class Flight {
    boolean changedAgain;
    boolean deletedLast;
  }

  private final LinkedHashMap<RoutedKey, Boolean> pending = new LinkedHashMap<>();
  private final HashMap<RoutedKey, Flight> inFlight = new HashMap<>();
  private final int[] pendingPerShard;
  private final int[] inFlightPerShard;

  public PendingKeys(int shardCount) {
    this.pendingPerShard = new int[shardCount];
    this.inFlightPerShard = new int[shardCount];
  }

  /**
   * Records a change of {@code key} on the source.
   *
   * @param deleted whether the change removed the key (del, expired, evicted, rename_from): only
   *     counted, the copy finds out itself whether the key still exists
   */
  public synchronized void changed(RoutedKey key, boolean deleted) {
    Flight flight = inFlight.get(key);
    if (flight != null) {
      flight.changedAgain = true;
      flight.deletedLast = deleted;
      return;
    }
    if (pending.put(key, deleted) == null) {
      pendingPerShard[key.shard()]++;
    }
  }

  /**
   * Claims a key found by the scan for a first copy.
   *
   * @return false if the key is pending or in flight already: it is (or will be) copied anyway
   */
  public synchronized boolean claim(RoutedKey key) {
    if (pending.containsKey(key) || inFlight.containsKey(key)) {
      return false;
    }
    inFlight.put(key, new Flight());
    inFlightPerShard[key.shard()]++;
    return true;
  }

  /**
   * Hands out up to {@code max} pending keys, oldest change first, and marks them in flight.
   *
   * @param shards only keys of these shards, or every shard if null
   */
  public synchronized List<Entry> takeBatch(int max, ShardSet shards) {
    List<Entry> batch = new ArrayList<>(Math.min(max, pending.size()));
    Iterator<Map.Entry<RoutedKey, Boolean>> iterator = pending.entrySet().iterator();
    while (batch.size() < max && iterator.hasNext()) {
      Map.Entry<RoutedKey, Boolean> next = iterator.next();
      RoutedKey key = next.getKey();
      if (shards != null && !shards.contains(key.shard())) {
        continue;
      }
      iterator.remove();
      pendingPerShard[key.shard()]--;
      inFlight.put(key, new Flight());
      inFlightPerShard[key.shard()]++;
      batch.add(new Entry(key, next.getValue()));
    }
    return batch;
  }

  /**
   * Ends the copy of {@code keys}: those that changed while in flight become pending again.
   *
   * @return how many became pending again
   */
  public synchronized int finished(Collection<RoutedKey> keys) {
    int again = 0;
    for (RoutedKey key : keys) {
      Flight flight = inFlight.remove(key);
      if (flight == null) {
        continue;
      }
      inFlightPerShard[key.shard()]--;
      if (flight.changedAgain && pending.put(key, flight.deletedLast) == null) {
        pendingPerShard[key.shard()]++;
        again++;
      }
    }
    return again;
  }

  /** Puts keys whose copy failed back to pending, so that a later copy still covers them. */
  public synchronized void failed(Collection<RoutedKey> keys) {
    for (RoutedKey key : keys) {
      Flight flight = inFlight.remove(key);
      if (flight == null) {
        continue;
      }
      inFlightPerShard[key.shard()]--;
      if (pending.put(key, flight.deletedLast) == null) {
        pendingPerShard[key.shard()]++;
      }
    }
  }

  /** Forgets every pending key of {@code shards}; returns how many were dropped. */
  public synchronized int drop(ShardSet shards) {
    int dropped = 0;
    Iterator<RoutedKey> iterator = pending.keySet().iterator();
    while (iterator.hasNext()) {
      RoutedKey key = iterator.next();
      if (shards.contains(key.shard())) {
        iterator.remove();
        pendingPerShard[key.shard()]--;
        dropped++;
      }
    }
    return dropped;
  }

  public synchronized int pendingCount() {
    return pending.size();
  }

  public synchronized int inFlightCount() {
    return inFlight.size();
  }

  /** Pending keys of {@code shards}. */
  public synchronized int pendingCount(ShardSet shards) {
    return count(pendingPerShard, shards);
  }

  /** Whether no key of {@code shards} is pending or in flight. */
  public synchronized boolean isSettled(ShardSet shards) {
    return count(pendingPerShard, shards) == 0 && count(inFlightPerShard, shards) == 0;
  }

  private static int count(int[] perShard, ShardSet shards) {
    int total = 0;
    for (int shard = 0; shard < perShard.length; shard++) {
      if (perShard[shard] != 0 && shards.contains(shard)) {
        total += perShard[shard];
      }
    }
    return total;
  }
}
