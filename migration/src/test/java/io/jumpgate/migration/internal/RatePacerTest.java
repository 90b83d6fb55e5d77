package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RatePacerTest {

  private long now = 1_000;
  private final List<Long> waits = new ArrayList<>();

  private RatePacer pacer(int keysPerSecond) {
    return new RatePacer(
        keysPerSecond,
        "test",
        () -> now,
        nanos -> {
          waits.add(nanos);
          now += nanos;
        });
  }

  @Test
  void should_hold_batches_back_to_the_rate_when_they_come_faster() {
    RatePacer pacer = pacer(10_000);

    pacer.pace(1_000); // the first batch goes at once
    pacer.pace(1_000); // due 100 ms after the start
    now += 30_000_000; // 30 ms of work
    pacer.pace(1_000); // due at 200 ms

    assertThat(waits).containsExactly(100_000_000L, 70_000_000L);
  }

  @Test
  void should_not_wait_when_the_copy_is_slower_than_the_rate() {
    RatePacer pacer = pacer(10_000);

    pacer.pace(1_000);
    now += 150_000_000;
    pacer.pace(1_000);

    assertThat(waits).isEmpty();
  }

  @Test
  void should_never_wait_without_a_rate() {
    RatePacer pacer = pacer(0);

    for (int batch = 0; batch < 100; batch++) {
      pacer.pace(100_000);
    }

    assertThat(waits).isEmpty();
  }

  @Test
  void should_wait_after_a_batch_sent_until_it_fits_the_rate() {
    RatePacer pacer = pacer(10_000);

    pacer.sent(500); // due 50 ms after the start
    now += 20_000_000;
    pacer.sent(500); // due at 100 ms

    assertThat(waits).containsExactly(50_000_000L, 30_000_000L);
  }

  @Test
  void should_refuse_a_negative_rate() {
    assertThatThrownBy(() -> pacer(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
