package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyTextTest {

  private static final Node A = Node.of("a", "10.0.0.1", 1);
  private static final Node B = Node.of("b", "10.0.0.2", 1);

  private static ShardRoute route(int shard, Node leader, long epoch, Node... replicas) {
    return ShardRoute.of(shard, leader, List.of(replicas), epoch, ShardState.ACTIVE, 0);
  }

  @Test
  void consecutiveShardsWithTheSameNodesAndStateAreOneRun() {
    List<TopologyText.ShardRun> runs =
        TopologyText.fold(
            List.of(
                route(0, A, 1, B),
                route(1, A, 4, B),
                route(2, A, 2, B),
                route(3, B, 0, A),
                ShardRoute.of(4, B, List.of(A), 0, ShardState.FROZEN, 0),
                ShardRoute.unavailable(5, "x"),
                ShardRoute.unavailable(6, "x"),
                ShardRoute.unavailable(7, "y"),
                route(8, A, 1, B)));

    assertThat(runs)
        .extracting(TopologyText.ShardRun::label)
        .containsExactly("0000-0002", "0003", "0004", "0005-0006", "0007", "0008");
    assertThat(runs)
        .extracting(TopologyText.ShardRun::epochs)
        .containsExactly("1-4", "0", "0", "-", "-", "1");
  }

  @Test
  void replicaOrderMatters() {
    Node c = Node.of("c", "10.0.0.3", 1);

    assertThat(TopologyText.fold(List.of(route(0, A, 0, B, c), route(1, A, 0, c, B)))).hasSize(2);
  }

  @Test
  void aFrozenShardShowsItsStateAndMigrationInTheContractsSpelling() {
    ShardRoute frozen =
        ShardRoute.of(
            4,
            B,
            List.of(A),
            0,
            ShardState.FROZEN,
            new ShardMigration("m1", Node.of("c", "h", 1)),
            0);
    ShardRoute otherMigration =
        ShardRoute.of(
            5,
            B,
            List.of(A),
            0,
            ShardState.FROZEN,
            new ShardMigration("m2", Node.of("c", "h", 1)),
            0);

    assertThat(TopologyText.stateText(frozen)).isEqualTo("frozen, migration m1 to c");
    assertThat(TopologyText.stateText(route(0, A, 0))).isEqualTo("active");
    assertThat(TopologyText.fold(List.of(frozen, otherMigration))).hasSize(2);
  }

  @Test
  void noRoutesNoRuns() {
    assertThat(TopologyText.fold(List.of())).isEmpty();
  }
}
