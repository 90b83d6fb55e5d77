package io.jumpgate.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.Plan;
import io.jumpgate.topology.PlanStep;
import io.jumpgate.topology.PlanSummary;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdminPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MapChangeTest {

  private static TopologyAdminPlan planOf(PlanStep... steps) {
    Plan plan =
        new Plan("test", List.of(steps), new PlanSummary(0, 0, 0, Map.of(), Map.of()), List.of());
    return new TopologyAdminPlan("c", 7, plan, null, List.of(), List.of(), List.of(), 1);
  }

  private static ShardAssignment shard(int shard, String leader, String... replicas) {
    return ShardAssignment.of(shard, leader, List.of(replicas), 1);
  }

  @Test
  void should_move_only_the_shards_whose_leader_changes() {
    TopologyAdminPlan plan =
        planOf(
            new PlanStep(1, shard(1, "a"), shard(1, "b")),
            new PlanStep(2, shard(2, "a", "c"), shard(2, "a", "d")),
            new PlanStep(3, shard(3, "c", "a"), shard(3, "b", "a")));

    Optional<MovePlan> moves = MapChange.leaderMoves(plan, "grow");

    assertThat(moves).isPresent();
    assertThat(moves.get().migrationId()).isEqualTo("grow");
    assertThat(moves.get().moves())
        .containsOnlyKeys(1, 3)
        .containsEntry(1, new MovePlan.ShardMove("a", "b"))
        .containsEntry(3, new MovePlan.ShardMove("c", "b"));
  }

  @Test
  void should_move_nothing_when_only_replicas_change_or_a_shard_had_no_leader() {
    TopologyAdminPlan plan =
        planOf(
            new PlanStep(0, null, shard(0, "a")),
            new PlanStep(2, shard(2, "a", "c"), shard(2, "a", "d")));

    assertThat(MapChange.leaderMoves(plan, "x")).isEmpty();
    assertThat(MapChange.replicaWarnings(plan)).isEmpty();
  }

  @Test
  void should_warn_about_replicas_that_do_not_receive_the_moved_data() {
    TopologyAdminPlan plan =
        planOf(
            new PlanStep(4, shard(4, "a", "c"), shard(4, "b", "c")),
            new PlanStep(5, shard(5, "a"), shard(5, "b")),
            new PlanStep(6, shard(6, "a", "d"), shard(6, "b", "d")));

    List<String> warnings = MapChange.replicaWarnings(plan);

    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0))
        .startsWith("2 moved shard(s) list replicas, e.g. shard 4 (replicas c)");
  }

  @Test
  void should_give_each_verb_a_migration_id_that_is_the_same_when_run_again() {
    Node node = Node.of("n3", "127.0.0.1", 7003);

    assertThat(MapChange.addNode(node).migrationId()).isEqualTo("add-node-n3");
    assertThat(MapChange.removeNode("n2").migrationId()).isEqualTo("remove-node-n2");
    assertThat(MapChange.moveShard(17, "n1").migrationId()).isEqualTo("move-shard-17-n1");
    assertThat(MapChange.rebalance().migrationId()).isEqualTo("rebalance");
    assertThat(MapChange.addNode(node).addedNode()).contains(node);
    assertThat(MapChange.removeNode("n2").addedNode()).isEmpty();
  }

  @Test
  void should_keep_long_ids_valid_and_distinct() {
    String longId = "n".repeat(60);
    String otherLongId = "n".repeat(59) + "m";

    String first = MapChange.removeNode(longId).migrationId();
    String second = MapChange.removeNode(otherLongId).migrationId();

    assertThat(first).hasSizeLessThanOrEqualTo(64).matches("[A-Za-z0-9._-]{1,64}");
    assertThat(second).hasSizeLessThanOrEqualTo(64).isNotEqualTo(first);
  }
}
