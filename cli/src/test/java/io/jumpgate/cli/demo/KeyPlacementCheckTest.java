package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The key check on made-up server contents: two nodes, keys with an even number on "even". */
class KeyPlacementCheckTest {

  private final WriteLedger ledger = Workload.newLedger();
  private final Map<String, String> even = new HashMap<>();
  private final Map<String, String> odd = new HashMap<>();
  private final Map<String, Map<String, String>> contents = Map.of("even", even, "odd", odd);

  /** Owner by the number at the end of the key. */
  private final Function<String, String> ownerOf =
      key -> Integer.parseInt(key.substring(key.indexOf(':') + 1)) % 2 == 0 ? "even" : "odd";

  private void set(int key, int value) {
    assertThat(ledger.tryLockKey(key)).isTrue();
    ledger.keyWritten(key, WriteLedger.valueState(value), true);
  }

  @Test
  void everyKeyOnItsOwnerWithItsLastValuePasses() {
    set(2, 4);
    set(3, 5);
    ledger.counterIncremented(1, true);
    ledger.counterIncremented(1, true);
    even.put("user:2", Workload.value(4));
    odd.put("user:3", Workload.value(5));
    odd.put("counter:1", "2");

    KeyPlacementCheck.Result result = KeyPlacementCheck.check(contents, ownerOf, ledger);

    assertThat(result.passed()).as("%s", result.firstErrors()).isTrue();
    assertThat(result.keysChecked()).isEqualTo(Workload.KEYS + Workload.COUNTERS);
    assertThat(result.withValue()).isEqualTo(3);
    assertThat(result.uncertain()).isZero();
  }

  @Test
  void aKeyOnANodeThatDoesNotLeadItsShardIsAnError() {
    set(2, 4);
    even.put("user:2", Workload.value(4));
    odd.put("user:2", Workload.value(4));

    KeyPlacementCheck.Result result = KeyPlacementCheck.check(contents, ownerOf, ledger);

    assertThat(result.errors()).isEqualTo(1);
    assertThat(result.firstErrors())
        .containsExactly(
            "user:2 on odd: a copy on a node that does not lead its shard (led by even)");
  }

  @Test
  void aMissingKeyAStaleValueAndALostIncrementAreErrors() {
    set(2, 4);
    set(4, 1);
    ledger.counterIncremented(3, true);
    even.put("user:4", Workload.value(0));
    odd.put("counter:3", "0");

    KeyPlacementCheck.Result result = KeyPlacementCheck.check(contents, ownerOf, ledger);

    assertThat(result.firstErrors())
        .containsExactly(
            "user:2 on even: absent, expected value 4 ('e' x 100)",
            "user:4 on even: value 0 ('a' x 100), expected value 1 ('b' x 100)",
            "counter:3 on odd: 0, expected 1 (INCRs answered)");
  }

  @Test
  void aFailedWriteIsAcceptedEitherWay() {
    set(2, 4);
    assertThat(ledger.tryLockKey(2)).isTrue();
    ledger.keyWritten(2, WriteLedger.ABSENT, false);
    ledger.counterIncremented(1, true);
    ledger.counterIncremented(1, false);
    odd.put("counter:1", "2");

    KeyPlacementCheck.Result result = KeyPlacementCheck.check(contents, ownerOf, ledger);

    assertThat(result.passed()).as("%s", result.firstErrors()).isTrue();
    assertThat(result.uncertain()).isEqualTo(2);
  }

  @Test
  void aKeyTheWorkloadDoesNotWriteIsAnError() {
    even.put("session:9", "x");
    even.put("user:010", "x");

    KeyPlacementCheck.Result result = KeyPlacementCheck.check(contents, ownerOf, ledger);

    assertThat(result.firstErrors())
        .containsExactlyInAnyOrder(
            "session:9 on even: not a key the workload writes",
            "user:010 on even: not a key the workload writes");
  }
}
