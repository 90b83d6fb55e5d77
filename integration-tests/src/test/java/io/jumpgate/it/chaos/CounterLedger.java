package io.jumpgate.it.chaos;

/**
 * The exact accounting of one counter that a single writer thread INCRs: the writer knows every
 * reply, so the value before each acknowledged INCR must be the last acknowledged value, plus one
 * for each earlier call of unknown outcome that the server did run.
 *
 * <ul>
 *   <li>A reply that goes back (the value before it is lower than the last acknowledged value): the
 *       difference is <b>lost</b> acknowledged increments. They count as lost to a crash when the
 *       counter's replication group had a crash that was not over yet when the call that got the
 *       last acknowledgement started (the count of crashes started now exceeds the count of crashes
 *       completed then), otherwise as lost to a graceful operation.
 *   <li>A reply that skips ahead: the gap is explained by calls of unknown outcome not explained
 *       before ({@link #pendingUnknown()}); whatever is left over is <b>doubled</b>.
 * </ul>
 *
 * <p>The final value read from the leader after the run is checked the same way ({@link
 * #settleFinal}). Not thread-safe: owned by one writer thread, read after it stopped.
 */
final class CounterLedger {
  private final String key;
  private final int group;

  private long lastAcknowledged;
  private long lastAcknowledgedCrashMark;
  private long pendingUnknown;
  private long acknowledged;
  private long unknownOutcomes;
  private long appliedUnknown;
  private long lostGraceful;
  private long lostCrash;
  private long doubled;
  private long finalValue = -1;

  CounterLedger(String key, int group) {
    this.key = key;
    this.group = group;
  }

  String key() {
    return key;
  }

  int group() {
    return group;
  }

  /** An INCR failed and the server may have run it. */
  void unknownOutcome() {
    unknownOutcomes++;
    pendingUnknown++;
  }

  /**
   * An INCR answered {@code reply}.
   *
   * @param crashMarkAtStart the group's count of completed crashes (leader killed and gone), read
   *     before the call was sent
   * @param crashMarkNow the group's count of started crashes (bumped before the kill), read after
   *     the answer
   */
  void acknowledged(long reply, long crashMarkAtStart, long crashMarkNow) {
    acknowledged++;
    check(reply - 1, crashMarkNow);
    lastAcknowledged = reply;
    lastAcknowledgedCrashMark = crashMarkAtStart;
  }

  /** The counter's value on its leader after the run ended. */
  void settleFinal(long value, long crashMarkNow) {
    finalValue = value;
    check(value, crashMarkNow);
  }

  private void check(long valueBefore, long crashMarkNow) {
    if (valueBefore < lastAcknowledged) {
      long lost = lastAcknowledged - valueBefore;
      if (crashMarkNow > lastAcknowledgedCrashMark) {
        lostCrash += lost;
      } else {
        lostGraceful += lost;
      }
    } else if (valueBefore > lastAcknowledged) {
      long gap = valueBefore - lastAcknowledged;
      long explained = Math.min(gap, pendingUnknown);
      pendingUnknown -= explained;
      appliedUnknown += explained;
      doubled += gap - explained;
    }
  }

  long acknowledgedCount() {
    return acknowledged;
  }

  long unknownOutcomes() {
    return unknownOutcomes;
  }

  /** Calls of unknown outcome that the counter's value shows the server ran. */
  long appliedUnknown() {
    return appliedUnknown;
  }

  /** Calls of unknown outcome not (yet) seen applied. */
  long pendingUnknown() {
    return pendingUnknown;
  }

  long lostGraceful() {
    return lostGraceful;
  }

  long lostCrash() {
    return lostCrash;
  }

  long doubled() {
    return doubled;
  }

  /** The value read after the run, or -1 before {@link #settleFinal}. */
  long finalValue() {
    return finalValue;
  }

  long lastAcknowledged() {
    return lastAcknowledged;
  }
}
