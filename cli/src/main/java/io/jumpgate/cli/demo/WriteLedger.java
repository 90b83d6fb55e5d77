package io.jumpgate.cli.demo;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the workload wrote, for the check at the end that every key is on its owner with the value
 * it should have ({@link KeyPlacementCheck}): for each of the {@code keys} keys the value it must
 * hold (one of {@code values} fixed values, or absent), and for each of the {@code counters}
 * counters the number of INCRs that were answered. Memory is fixed: a few bytes per key.
 *
 * <p>A write whose outcome is unknown (it failed: it may or may not have run) widens what is
 * accepted instead of guessing: a key then may hold its value before or the value of the failed
 * write, a counter may be higher by the number of failed INCRs. The next answered write to the key
 * makes it exact again.
 *
 * <p>Exact only when at most one write to a key is in flight at a time: {@link #tryLockKey} gives
 * the workload that guarantee (writes to different keys run concurrently, as do INCRs of one
 * counter, which commute).
 *
 * <p>Thread-safe: the workload's sender locks keys, the driver's threads record the answers, the
 * check reads once the workload has stopped.
 */
final class WriteLedger {

  /** The state of a key that holds no value: never written, or deleted. */
  static final int ABSENT = 0;

  private final int values;
  private final AtomicIntegerArray keyInFlight;
  private final AtomicIntegerArray possibleStates;
  private final AtomicLongArray incrementsAnswered;
  private final AtomicLongArray incrementsFailed;

  /**
   * @param keys how many keys ({@code 0 .. keys-1})
   * @param counters how many counters
   * @param values how many distinct values a key can be set to ({@code 0 .. values-1}, at most 30)
   */
  WriteLedger(int keys, int counters, int values) {
    if (values < 1 || values > 30) {
      throw new IllegalArgumentException("values must be 1 to 30, was " + values);
    }
    this.values = values;
    this.keyInFlight = new AtomicIntegerArray(keys);
    this.possibleStates = new AtomicIntegerArray(keys);
    for (int key = 0; key < keys; key++) {
      possibleStates.set(key, bit(ABSENT));
    }
    this.incrementsAnswered = new AtomicLongArray(counters);
    this.incrementsFailed = new AtomicLongArray(counters);
  }

  int keys() {
    return possibleStates.length();
  }

  int counters() {
    return incrementsAnswered.length();
  }

  /** The state of a key set to value {@code valueIndex}: {@code valueIndex + 1}. */
  static int valueState(int valueIndex) {
    return valueIndex + 1;
  }

  /**
   * Marks a write to {@code key} in flight, unless one is already: then false, and the caller must
   * not write the key now.
   */
  boolean tryLockKey(int key) {
    return keyInFlight.compareAndSet(key, 0, 1);
  }

  /**
   * Records the end of the write to {@code key} that {@link #tryLockKey} allowed, and unlocks it.
   *
   * @param state what the write sets: {@link #ABSENT} for a DEL, {@link #valueState} for a SET
   * @param answered whether the server answered; false: the write may or may not have run
   */
  void keyWritten(int key, int state, boolean answered) {
    if (state < 0 || state > values) {
      throw new IllegalArgumentException("state must be 0 to " + values + ", was " + state);
    }
    int current = possibleStates.get(key);
    possibleStates.set(key, answered ? bit(state) : current | bit(state));
    keyInFlight.set(key, 0);
  }

  /** Unlocks {@code key} after a write that was not sent at all: its state stays. */
  void unlockKey(int key) {
    keyInFlight.set(key, 0);
  }

  /** Records the end of an INCR of {@code counter}. */
  void counterIncremented(int counter, boolean answered) {
    (answered ? incrementsAnswered : incrementsFailed).incrementAndGet(counter);
  }

  /** Whether {@code key} may hold {@code state} ({@link #ABSENT} or a {@link #valueState}). */
  boolean accepts(int key, int state) {
    return state >= 0 && state <= values && (possibleStates.get(key) & bit(state)) != 0;
  }

  /** Whether one state only is accepted for {@code key} (no write of unknown outcome since). */
  boolean exact(int key) {
    return Integer.bitCount(possibleStates.get(key)) == 1;
  }

  /** The lowest state accepted for {@code key}, to name what was expected. */
  int expectedState(int key) {
    return Integer.numberOfTrailingZeros(possibleStates.get(key));
  }

  /** INCRs of {@code counter} answered: the least value it may hold. */
  long incrementsAnswered(int counter) {
    return incrementsAnswered.get(counter);
  }

  /** INCRs of {@code counter} that failed: it may hold up to this much more. */
  long incrementsFailed(int counter) {
    return incrementsFailed.get(counter);
  }

  private static int bit(int state) {
    return 1 << state;
  }
}
