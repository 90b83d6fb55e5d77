package io.jumpgate.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The counter accounting, on a clock the test moves (milliseconds as nanoseconds). */
class CounterLedgerTest {

  private static final long MS = 1_000_000L;
  private static final long CREDIT_LIFETIME = 3_000 * MS;
  private static final long REPLICATION_LAG = 1_000 * MS;

  private final CounterLedger ledger = new CounterLedger("c", 0, CREDIT_LIFETIME, REPLICATION_LAG);
  private long now = 1_000_000 * MS;
  private long crashesCompleted;
  private long crashesStarted;
  private long lastCrashStart;

  /** An INCR sent now and answered 1 ms later; the clock moves on by 10 ms. */
  private void ack(long reply) {
    ledger.acknowledged(reply, now, now + MS, crashesCompleted, crashesStarted, lastCrashStart);
    now += 10 * MS;
  }

  private void unknown() {
    ledger.unknownOutcome(now);
    now += 10 * MS;
  }

  private void crashStarts() {
    crashesStarted++;
    lastCrashStart = now;
  }

  private void crashCompletes() {
    crashesCompleted++;
  }

  private void settle(long value) {
    ledger.settleFinal(value, now, crashesStarted, lastCrashStart);
  }

  @Test
  void should_accept_replies_that_go_one_by_one() {
    for (long reply = 1; reply <= 5; reply++) {
      ack(reply);
    }
    settle(5);
    assertThat(ledger.acknowledgedCount()).isEqualTo(5);
    assertThat(ledger.doubled() + ledger.lostGraceful() + ledger.lostCrash()).isZero();
  }

  @Test
  void should_count_a_skip_with_no_unknown_outcome_before_it_as_doubled() {
    ack(1);
    ack(3);
    assertThat(ledger.doubled()).isEqualTo(1);
  }

  @Test
  void should_explain_a_skip_by_earlier_calls_of_unknown_outcome_even_when_they_land_late() {
    ack(1);
    unknown();
    unknown();
    ack(2); // neither ran yet
    ack(4); // one ran after the ack of 2
    ack(6); // the other ran after the ack of 4
    assertThat(ledger.doubled()).isZero();
    assertThat(ledger.appliedUnknown()).isEqualTo(2);
    ack(8); // nothing left to explain this one
    assertThat(ledger.doubled()).isEqualTo(1);
  }

  @Test
  void should_expire_a_credit_once_a_call_started_after_its_last_possible_run() {
    ack(1);
    unknown();
    now += CREDIT_LIFETIME; // the failed call would have run by now, if ever
    ack(2); // it did not: the value before this call is 1
    assertThat(ledger.expiredUnknown()).isEqualTo(1);
    assertThat(ledger.pendingUnknown()).isZero();

    ack(4); // a doubled write that the old credit would have hidden
    assertThat(ledger.doubled()).isEqualTo(1);
    assertThat(ledger.appliedUnknown()).isZero();
  }

  @Test
  void should_let_a_credit_explain_the_observation_that_first_passes_its_lifetime() {
    ack(1);
    unknown();
    now += CREDIT_LIFETIME;
    ack(3); // it ran before this call: its run is in this value, explained, not expired
    assertThat(ledger.doubled()).isZero();
    assertThat(ledger.appliedUnknown()).isEqualTo(1);
    assertThat(ledger.expiredUnknown()).isZero();
  }

  @Test
  void should_keep_a_credit_alive_within_its_lifetime_however_many_calls_follow() {
    ack(1);
    unknown();
    for (long reply = 2; reply <= 100; reply++) {
      ack(reply); // 99 calls of 10 ms: within the 3 s lifetime
    }
    assertThat(ledger.pendingUnknown()).isEqualTo(1);
    ack(102);
    assertThat(ledger.doubled()).isZero();
  }

  @Test
  void should_check_the_final_value_like_a_reply() {
    ack(1);
    unknown();
    settle(2); // the unknown one ran after the last ack
    assertThat(ledger.doubled()).isZero();

    CounterLedger twice = new CounterLedger("c", 0, CREDIT_LIFETIME, REPLICATION_LAG);
    twice.acknowledged(1, now, now, 0, 0, 0);
    twice.settleFinal(2, now, 0, 0); // one more than ever acknowledged or tried
    assertThat(twice.doubled()).isEqualTo(1);
  }

  @Test
  void should_count_a_reply_that_goes_back_without_a_crash_as_graceful() {
    ack(10);
    ack(8); // 8, 9 and 10 were there before: 3 acked increments gone
    assertThat(ledger.lostGraceful()).isEqualTo(3);
    assertThat(ledger.lostCrash()).isZero();
  }

  @Test
  void should_explain_a_crash_loss_of_acks_answered_within_the_replication_lag() {
    for (long reply = 1; reply <= 10; reply++) {
      ack(reply);
    }
    crashStarts(); // 9 and 10 were answered 10 and 20 ms before: not yet on the replica
    now += 300 * MS;
    crashCompletes();
    ack(9);
    assertThat(ledger.lostCrash()).isEqualTo(2);
    assertThat(ledger.lostCrashReplicated()).isEqualTo(2);
    assertThat(ledger.lostCrashUnexplained()).isZero();
    assertThat(ledger.lostGraceful()).isZero();
  }

  @Test
  void should_not_explain_a_crash_loss_of_an_ack_older_than_the_replication_lag() {
    ack(1);
    ack(2);
    now += 2 * REPLICATION_LAG; // 2 was on the replica long before the crash
    ack(3);
    crashStarts();
    crashCompletes();
    ack(2); // 2 and 3 gone: 3 within the lag, 2 not
    assertThat(ledger.lostCrashReplicated()).isEqualTo(1);
    assertThat(ledger.lostCrashUnexplained()).isEqualTo(1);
  }

  @Test
  void should_count_a_later_loss_with_no_new_crash_as_graceful_again() {
    ack(10);
    crashStarts();
    crashCompletes();
    ack(9); // the group crashed after the call that got 10 started
    assertThat(ledger.lostCrash()).isEqualTo(2);
    ack(10);
    settle(9);
    assertThat(ledger.lostGraceful()).isEqualTo(1);
  }

  @Test
  void should_refuse_a_negative_lifetime_or_lag() {
    assertThatThrownBy(() -> new CounterLedger("c", 0, -1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("credit lifetime and replication lag must not be negative, were -1 and 0 ns");
  }
}
