package io.jumpgate.it.chaos;

import java.util.ArrayDeque;

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
 *       completed then), otherwise as lost to a graceful operation. A crash loss is <b>explained by
 *       asynchronous replication</b> when each lost acknowledgement was answered no earlier than
 *       the replication lag allowed before the crash started (the leader acknowledged it, and it
 *       had not reached the replica that took over); a lost acknowledgement older than that is a
 *       crash loss that replication does not explain.
 *   <li>A reply that skips ahead: the gap is explained by calls of unknown outcome not explained
 *       before ({@link #pendingUnknown()}); whatever is left over is <b>doubled</b>. Such a
 *       <b>credit expires</b>: a call that failed at time t can only have run before t plus the
 *       longest delay a fault can put between a write and its run, so an observation (a reply, or
 *       the final read) whose call started after that, and that the credit was not needed for,
 *       shows that it did not run: it is dropped ({@link #expiredUnknown()}) and can no longer hide
 *       a doubled increment.
 * </ul>
 *
 * <p>The final value read from the leader after the run is checked the same way ({@link
 * #settleFinal}). Not thread-safe: owned by one writer thread, read after it stopped. Times are
 * {@link System#nanoTime()} values passed in by the caller.
 */
final class CounterLedger {

  /** How many recent acknowledgements are kept to tell when a lost one was answered. */
  static final int RECENT_ACKNOWLEDGEMENTS = 4096;

  private final String key;
  private final int group;
  private final long creditLifetimeNanos;
  private final long replicationLagNanos;

  /** When each pending call of unknown outcome failed, oldest first. */
  private final ArrayDeque<Long> pendingCredits = new ArrayDeque<>();

  /** Recent acknowledgements, newest last: value, then the time it was answered. */
  private final ArrayDeque<long[]> recent = new ArrayDeque<>();

  private long lastAcknowledged;
  private long lastAcknowledgedCrashMark;
  private long acknowledged;
  private long unknownOutcomes;
  private long appliedUnknown;
  private long expiredUnknown;
  private long lostGraceful;
  private long lostCrashReplicated;
  private long lostCrashUnexplained;
  private long doubled;
  private long finalValue = -1;

  /**
   * @param creditLifetimeNanos the longest a call of unknown outcome may take to run after it
   *     failed
   * @param replicationLagNanos how long before a crash an acknowledged increment may still not have
   *     reached the replica that takes over
   */
  CounterLedger(String key, int group, long creditLifetimeNanos, long replicationLagNanos) {
    if (creditLifetimeNanos < 0 || replicationLagNanos < 0) {
      throw new IllegalArgumentException(
          "credit lifetime and replication lag must not be negative, were "
              + creditLifetimeNanos
              + " and "
              + replicationLagNanos
              + " ns");
    }
    this.key = key;
    this.group = group;
    this.creditLifetimeNanos = creditLifetimeNanos;
    this.replicationLagNanos = replicationLagNanos;
  }

  String key() {
    return key;
  }

  int group() {
    return group;
  }

  /** An INCR failed at {@code failedAtNanos} and the server may have run it. */
  void unknownOutcome(long failedAtNanos) {
    unknownOutcomes++;
    pendingCredits.addLast(failedAtNanos);
  }

  /**
   * An INCR answered {@code reply}.
   *
   * @param startNanos when the call was sent
   * @param answerNanos when the answer came
   * @param crashMarkAtStart the group's count of completed crashes (leader killed and gone), read
   *     before the call was sent
   * @param crashMarkNow the group's count of started crashes (bumped before the kill), read after
   *     the answer
   * @param lastCrashStartNanos when the group's latest crash started (meaningful once one did)
   */
  void acknowledged(
      long reply,
      long startNanos,
      long answerNanos,
      long crashMarkAtStart,
      long crashMarkNow,
      long lastCrashStartNanos) {
    acknowledged++;
    check(reply - 1, startNanos, crashMarkNow, lastCrashStartNanos);
    lastAcknowledged = reply;
    lastAcknowledgedCrashMark = crashMarkAtStart;
    recent.addLast(new long[] {reply, answerNanos});
    if (recent.size() > RECENT_ACKNOWLEDGEMENTS) {
      recent.removeFirst();
    }
  }

  /** The counter's value on its leader after the run ended, read at {@code readNanos}. */
  void settleFinal(long value, long readNanos, long crashMarkNow, long lastCrashStartNanos) {
    finalValue = value;
    check(value, readNanos, crashMarkNow, lastCrashStartNanos);
  }

  private void check(
      long valueBefore, long observedFromNanos, long crashMarkNow, long lastCrashStartNanos) {
    if (valueBefore < lastAcknowledged) {
      long lost = lastAcknowledged - valueBefore;
      if (crashMarkNow > lastAcknowledgedCrashMark) {
        long unexplained = lostBefore(valueBefore, lastCrashStartNanos - replicationLagNanos, lost);
        lostCrashUnexplained += unexplained;
        lostCrashReplicated += lost - unexplained;
      } else {
        forget(valueBefore);
        lostGraceful += lost;
      }
    } else if (valueBefore > lastAcknowledged) {
      long gap = valueBefore - lastAcknowledged;
      long explained = Math.min(gap, pendingCredits.size());
      for (long index = 0; index < explained; index++) {
        pendingCredits.removeFirst();
      }
      appliedUnknown += explained;
      doubled += gap - explained;
    }
    // Whatever a credit failed before this observation's call could run was seen by it.
    while (!pendingCredits.isEmpty()
        && observedFromNanos - (pendingCredits.peekFirst() + creditLifetimeNanos) > 0) {
      pendingCredits.removeFirst();
      expiredUnknown++;
    }
  }

  /**
   * Of the {@code lost} increments above {@code valueBefore}, how many were acknowledged before
   * {@code windowStartNanos}, or cannot be told (older than the recent acknowledgements kept). The
   * lost acknowledgements are forgotten: the counter counts them again.
   */
  private long lostBefore(long valueBefore, long windowStartNanos, long lost) {
    long found = 0;
    long old = 0;
    boolean reachedValueBefore = false;
    while (!recent.isEmpty()) {
      long[] newest = recent.peekLast();
      if (newest[0] <= valueBefore) {
        reachedValueBefore = true;
        break;
      }
      recent.removeLast();
      found++;
      if (newest[1] - windowStartNanos < 0) {
        old++;
      }
    }
    // Lost values this ledger never saw acknowledged are calls of unknown outcome that ran on the
    // dead leader, unless the record ran out: then they cannot be told and count as unexplained.
    return reachedValueBefore ? old : old + Math.max(0, lost - found);
  }

  private void forget(long valueBefore) {
    while (!recent.isEmpty() && recent.peekLast()[0] > valueBefore) {
      recent.removeLast();
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

  /** Calls of unknown outcome not (yet) seen applied and not expired. */
  long pendingUnknown() {
    return pendingCredits.size();
  }

  /** Calls of unknown outcome whose credit expired: a later observation showed they did not run. */
  long expiredUnknown() {
    return expiredUnknown;
  }

  long lostGraceful() {
    return lostGraceful;
  }

  /** Acknowledged increments lost to a crash, every one of them within the replication lag. */
  long lostCrashReplicated() {
    return lostCrashReplicated;
  }

  /** Acknowledged increments lost to a crash that asynchronous replication does not explain. */
  long lostCrashUnexplained() {
    return lostCrashUnexplained;
  }

  long lostCrash() {
    return lostCrashReplicated + lostCrashUnexplained;
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
