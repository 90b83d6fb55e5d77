package io.jumpgate.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The estimate's arithmetic and text, and a source that cannot be sampled. No Redis. */
class MoveEstimateTest {

  @Test
  void addsUpTheKnownSourcesAndStatesTheRate() {
    MoveEstimate estimate =
        new MoveEstimate(
            List.of(
                new MoveEstimate.SourceEstimate(
                    "n0", "127.0.0.1:7000", 3, 20_000, 1_000, 250, 5_000, 512_000, null),
                new MoveEstimate.SourceEstimate(
                    "n1", "127.0.0.1:7001", 2, 10_000, 1_000, 100, 1_000, -1, "bytes unknown: x"),
                MoveEstimate.SourceEstimate.unknown("n2", "127.0.0.1:7002", 1, "refused")),
            MoveEstimate.ASSUMED_KEYS_PER_SECOND);

    assertThat(estimate.complete()).isFalse();
    assertThat(estimate.keysMoving()).isEqualTo(6_000);
    assertThat(estimate.bytesMoving()).isEqualTo(512_000);
    assertThat(estimate.copyTime()).isEqualTo(Duration.ofMillis(60));
    assertThat(estimate.describe())
        .containsExactly(
            "estimate (without the sources unknown): about 6,000 key(s), 500 KB move; at about"
                + " 100,000 keys/s the copy takes about 0.1 s",
            "  from n0 (127.0.0.1:7000), 3 shard(s): about 5,000 of 20,000 key(s), 500 KB (250"
                + " of 1,000 sampled keys move)",
            "  from n1 (127.0.0.1:7001), 2 shard(s): about 1,000 of 10,000 key(s), unknown bytes"
                + " (100 of 1,000 sampled keys move)",
            "  from n2 (127.0.0.1:7002), 1 shard(s): unknown (refused)");
  }

  @Test
  void anOfflineGroupIsFrozenForAScanOfItsWholeSourceAndTheCopyOfItsShareOfTheKeys() {
    MoveEstimate estimate =
        new MoveEstimate(
            List.of(
                new MoveEstimate.SourceEstimate(
                    "n0", "127.0.0.1:7000", 4, 1_000_000, 1_000, 250, 250_000, -1, null),
                MoveEstimate.SourceEstimate.unknown("n2", "127.0.0.1:7002", 1, "refused")),
            MoveEstimate.ASSUMED_KEYS_PER_SECOND);

    // 1,000,000 keys scanned at 500,000 keys/s: 2 s; half of 250,000 keys at 100,000 keys/s: 1.25 s
    assertThat(estimate.offlineFreezePerGroup(2))
        .containsExactly(java.util.Map.entry("n0", Duration.ofMillis(3_250)));
    // a group larger than the shards leaving the source holds them all: 2 s + 2.5 s
    assertThat(estimate.longestOfflineFreeze(32)).isEqualTo(Duration.ofMillis(4_500));
    assertThatThrownBy(() -> estimate.offlineFreezePerGroup(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("groupSize must be at least 1, was 0");
    MoveEstimate none =
        new MoveEstimate(
            List.of(MoveEstimate.SourceEstimate.unknown("n2", "127.0.0.1:7002", 1, "refused")),
            MoveEstimate.ASSUMED_KEYS_PER_SECOND);
    assertThat(none.longestOfflineFreeze(8)).isNull();
  }

  @Test
  void bytesAreShownInUnitsOf1024() {
    assertThat(MoveEstimate.bytes(-1)).isEqualTo("unknown bytes");
    assertThat(MoveEstimate.bytes(0)).isEqualTo("0 B");
    assertThat(MoveEstimate.bytes(2047)).isEqualTo("2 KB");
    assertThat(MoveEstimate.bytes(3 * 1024 * 1024 + 300_000)).isEqualTo("3.3 MB");
    assertThat(MoveEstimate.bytes(5L * 1024 * 1024 * 1024)).isEqualTo("5.0 GB");
  }

  @Test
  void aSourceThatCannotBeReachedIsUnknownAndTheEstimateDoesNotFail() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    MovePlan plan = MovePlan.builder("m1").move(3, "n0", "n1").move(5, "gone", "n1").build();
    Map<String, Node> nodes = Map.of("n0", Node.of("n0", "127.0.0.1", closedPort));

    MoveEstimate estimate =
        MoveEstimate.estimate(
            plan,
            nodes,
            node -> ServerAddress.of(node.host(), node.port()),
            16,
            Duration.ofSeconds(2));

    assertThat(estimate.complete()).isFalse();
    assertThat(estimate.keysMoving()).isZero();
    assertThat(estimate.sources()).hasSize(2);
    assertThat(estimate.sources().get(0).nodeId()).isEqualTo("gone");
    assertThat(estimate.sources().get(0).unknownReason()).isEqualTo("not in the node table");
    assertThat(estimate.sources().get(1).known()).isFalse();
    assertThat(estimate.sources().get(1).unknownReason()).contains("127.0.0.1:" + closedPort);
    assertThat(estimate.describe().get(0))
        .isEqualTo("estimate: unknown, no source could be sampled");
  }
}
