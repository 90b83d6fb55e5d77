package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriteLedgerTest {

  private final WriteLedger ledger = new WriteLedger(4, 2, 16);

  @Test
  void aKeyNeverWrittenMustBeAbsent() {
    assertThat(ledger.accepts(0, WriteLedger.ABSENT)).isTrue();
    assertThat(ledger.accepts(0, WriteLedger.valueState(3))).isFalse();
    assertThat(ledger.exact(0)).isTrue();
  }

  @Test
  void anAnsweredWriteIsTheOnlyValueAccepted() {
    assertThat(ledger.tryLockKey(1)).isTrue();
    ledger.keyWritten(1, WriteLedger.valueState(3), true);
    assertThat(ledger.tryLockKey(1)).isTrue();
    ledger.keyWritten(1, WriteLedger.valueState(5), true);

    assertThat(ledger.accepts(1, WriteLedger.valueState(5))).isTrue();
    assertThat(ledger.accepts(1, WriteLedger.valueState(3))).isFalse();
    assertThat(ledger.accepts(1, WriteLedger.ABSENT)).isFalse();
    assertThat(ledger.expectedState(1)).isEqualTo(WriteLedger.valueState(5));
  }

  @Test
  void anAnsweredDeleteMakesTheKeyAbsent() {
    assertThat(ledger.tryLockKey(2)).isTrue();
    ledger.keyWritten(2, WriteLedger.valueState(0), true);
    assertThat(ledger.tryLockKey(2)).isTrue();
    ledger.keyWritten(2, WriteLedger.ABSENT, true);

    assertThat(ledger.accepts(2, WriteLedger.ABSENT)).isTrue();
    assertThat(ledger.accepts(2, WriteLedger.valueState(0))).isFalse();
  }

  @Test
  void aFailedWriteAcceptsTheValueBeforeAndItsOwnUntilTheNextAnsweredOne() {
    assertThat(ledger.tryLockKey(3)).isTrue();
    ledger.keyWritten(3, WriteLedger.valueState(7), true);
    assertThat(ledger.tryLockKey(3)).isTrue();
    ledger.keyWritten(3, WriteLedger.valueState(9), false);

    assertThat(ledger.exact(3)).isFalse();
    assertThat(ledger.accepts(3, WriteLedger.valueState(7))).isTrue();
    assertThat(ledger.accepts(3, WriteLedger.valueState(9))).isTrue();
    assertThat(ledger.accepts(3, WriteLedger.ABSENT)).isFalse();

    assertThat(ledger.tryLockKey(3)).isTrue();
    ledger.keyWritten(3, WriteLedger.valueState(1), true);
    assertThat(ledger.exact(3)).isTrue();
  }

  @Test
  void aKeyTakesOneWriteAtATime() {
    assertThat(ledger.tryLockKey(0)).isTrue();
    assertThat(ledger.tryLockKey(0)).isFalse();
    assertThat(ledger.tryLockKey(1)).isTrue();

    ledger.unlockKey(0);
    assertThat(ledger.tryLockKey(0)).isTrue();
  }

  @Test
  void countersCountAnsweredAndFailedIncrementsApart() {
    ledger.counterIncremented(1, true);
    ledger.counterIncremented(1, true);
    ledger.counterIncremented(1, false);

    assertThat(ledger.incrementsAnswered(1)).isEqualTo(2);
    assertThat(ledger.incrementsFailed(1)).isEqualTo(1);
    assertThat(ledger.incrementsAnswered(0)).isZero();
  }
}
