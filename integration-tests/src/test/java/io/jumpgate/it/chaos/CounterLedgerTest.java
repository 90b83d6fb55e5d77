package io.jumpgate.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CounterLedgerTest {

  @Test
  void should_accept_replies_that_go_one_by_one() {
    CounterLedger ledger = new CounterLedger("c", 0);
    for (long reply = 1; reply <= 5; reply++) {
      ledger.acknowledged(reply, 0, 0);
    }
    ledger.settleFinal(5, 0);
    assertThat(ledger.acknowledgedCount()).isEqualTo(5);
    assertThat(ledger.doubled() + ledger.lostGraceful() + ledger.lostCrash()).isZero();
  }

  @Test
  void should_count_a_skip_with_no_unknown_outcome_before_it_as_doubled() {
    CounterLedger ledger = new CounterLedger("c", 0);
    ledger.acknowledged(1, 0, 0);
    ledger.acknowledged(3, 0, 0);
    assertThat(ledger.doubled()).isEqualTo(1);
  }

  @Test
  void should_explain_a_skip_by_earlier_calls_of_unknown_outcome_even_when_they_land_late() {
    CounterLedger ledger = new CounterLedger("c", 0);
    ledger.acknowledged(1, 0, 0);
    ledger.unknownOutcome();
    ledger.unknownOutcome();
    ledger.acknowledged(2, 0, 0); // neither ran yet
    ledger.acknowledged(4, 0, 0); // one ran after the ack of 2
    ledger.acknowledged(6, 0, 0); // the other ran after the ack of 4
    assertThat(ledger.doubled()).isZero();
    assertThat(ledger.appliedUnknown()).isEqualTo(2);
    ledger.acknowledged(8, 0, 0); // nothing left to explain this one
    assertThat(ledger.doubled()).isEqualTo(1);
  }

  @Test
  void should_check_the_final_value_like_a_reply() {
    CounterLedger ledger = new CounterLedger("c", 0);
    ledger.acknowledged(1, 0, 0);
    ledger.unknownOutcome();
    ledger.settleFinal(2, 0); // the unknown one ran after the last ack
    assertThat(ledger.doubled()).isZero();
    CounterLedger twice = new CounterLedger("c", 0);
    twice.acknowledged(1, 0, 0);
    twice.settleFinal(2, 0); // one more than ever acknowledged or tried
    assertThat(twice.doubled()).isEqualTo(1);
  }

  @Test
  void should_count_a_reply_that_goes_back_as_lost_to_a_crash_only_when_the_group_crashed() {
    CounterLedger graceful = new CounterLedger("c", 0);
    graceful.acknowledged(10, 0, 0);
    graceful.acknowledged(8, 0, 0); // 8, 9 and 10 were there before: 3 acked increments gone
    assertThat(graceful.lostGraceful()).isEqualTo(3);
    assertThat(graceful.lostCrash()).isZero();

    CounterLedger crashed = new CounterLedger("c", 0);
    crashed.acknowledged(10, 4, 4);
    crashed.acknowledged(9, 5, 5); // the group crashed after the call that got 10 started
    assertThat(crashed.lostCrash()).isEqualTo(2);
    assertThat(crashed.lostGraceful()).isZero();
    // a later loss with no new crash is graceful again
    crashed.acknowledged(10, 5, 5);
    crashed.settleFinal(9, 5);
    assertThat(crashed.lostGraceful()).isEqualTo(1);
  }
}
