package io.jumpgate.topology.internal;

import io.jumpgate.spi.InvalidEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The entries that failed validation and are still the current raw value of their key, sorted by
 * key, with what changed in the revision being applied (for the once-per-revision log line).
 *
 * <p>Not thread-safe: confined to the topology thread with its {@link TopologyState}.
 */
final class InvalidEntries {

  private final SortedMap<String, InvalidEntry> entries = new TreeMap<>();
  private final List<InvalidEntry> reported = new ArrayList<>();
  private int cleared;

  /** Starts a revision: forgets what the previous one reported and cleared. */
  void beginRevision() {
    reported.clear();
    cleared = 0;
  }

  /** The key's current value is invalid. */
  void report(String key, String reason, long modRevision) {
    InvalidEntry entry = new InvalidEntry(key, reason, modRevision);
    if (!entry.equals(entries.put(key, entry))) {
      reported.add(entry);
    }
  }

  /** The key's current value is valid, or the key is gone. */
  void clear(String key) {
    if (entries.remove(key) != null) {
      cleared++;
    }
  }

  int count() {
    return entries.size();
  }

  List<InvalidEntry> list() {
    return List.copyOf(entries.values());
  }

  /** Entries reported in this revision that are still invalid at its end. */
  List<InvalidEntry> reportedThisRevision() {
    List<InvalidEntry> stillInvalid = new ArrayList<>();
    for (InvalidEntry entry : reported) {
      if (entry.equals(entries.get(entry.key()))) {
        stillInvalid.add(entry);
      }
    }
    return stillInvalid;
  }

  /** How many entries stopped being invalid in this revision. */
  int clearedThisRevision() {
    return cleared;
  }
}
