package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.TopologySourceStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SourceStatusTrackerTest {

  private static final Instant AT = Instant.parse("2026-11-22T10:00:00Z");

  private final SourceStatusTracker tracker = new SourceStatusTracker();

  @Test
  void should_start_disconnected_and_never_confirmed() {
    assertThat(tracker.status()).isEqualTo(new TopologySourceStatus(false, -1, null, null));
  }

  @Test
  void should_keep_the_last_confirmation_through_errors_and_clear_them_when_confirmed() {
    tracker.confirmed(7, AT);
    tracker.failedWhileConnected("bad content");

    assertThat(tracker.status()).isEqualTo(new TopologySourceStatus(true, 7, AT, "bad content"));

    tracker.disconnected("gone");

    assertThat(tracker.status()).isEqualTo(new TopologySourceStatus(false, 7, AT, "gone"));

    tracker.confirmed(8, AT.plusSeconds(1));

    assertThat(tracker.status())
        .isEqualTo(new TopologySourceStatus(true, 8, AT.plusSeconds(1), null));
  }
}
