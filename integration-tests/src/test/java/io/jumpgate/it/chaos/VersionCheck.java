package io.jumpgate.it.chaos;

import java.util.HashMap;
import java.util.Map;

/**
 * One reader's memory of the versions it read: per key, the leader epoch of the key's shard and the
 * highest version read in it. Versions are only compared within one epoch; a read in a newer epoch
 * starts afresh. Not thread-safe: one per reader thread.
 */
final class VersionCheck {

  /** What a read shows against the earlier ones. */
  enum Result {
    /** The first read of the key in this epoch: nothing to compare with. */
    FIRST_IN_EPOCH,
    /** At least the highest version read before in this epoch. */
    IN_ORDER,
    /** Older than a version read before in this epoch. */
    WENT_BACK
  }

  private final Map<String, long[]> seen = new HashMap<>();

  /** Records a read of {@code version} in {@code epoch} and says how it compares. */
  Result check(String key, long epoch, long version) {
    long[] last = seen.get(key);
    if (last == null || last[0] < epoch) {
      seen.put(key, new long[] {epoch, version});
      return Result.FIRST_IN_EPOCH;
    }
    if (last[0] > epoch) {
      return Result.FIRST_IN_EPOCH; // an older epoch than one already seen: not comparable
    }
    if (version < last[1]) {
      return Result.WENT_BACK;
    }
    last[1] = version;
    return Result.IN_ORDER;
  }

  /** The highest version read of the key in its latest epoch, or -1. */
  long highest(String key) {
    long[] last = seen.get(key);
    return last == null ? -1 : last[1];
  }
}
