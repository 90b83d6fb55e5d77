package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

class DispatchGateTest {

  @Test
  void generationsOfOneParityShareACounterAndTheOtherParityHasItsOwn() {
    DispatchGate gate = new DispatchGate();

    assertThat(gate.counterOf(0)).isSameAs(gate.counterOf(2)).isSameAs(gate.counterOf(1L << 40));
    assertThat(gate.counterOf(1)).isSameAs(gate.counterOf(3)).isSameAs(gate.counterOf(-1));
    assertThat(gate.counterOf(0)).isNotSameAs(gate.counterOf(1));
  }

  @Test
  void aTryInFlightUnderOneParityKeepsThatParityBusyOnly() {
    DispatchGate gate = new DispatchGate();
    LongAdder even = gate.counterOf(4);
    even.increment();

    assertThat(gate.awaitQuiet(5, 0)).as("the other parity is quiet").isTrue();
    assertThat(gate.awaitQuiet(6, TimeUnit.MILLISECONDS.toNanos(5)))
        .as("a try of generation 4 is still between routing and Lettuce")
        .isFalse();

    even.decrement();
    assertThat(gate.awaitQuiet(6, 0)).isTrue();
  }
}
