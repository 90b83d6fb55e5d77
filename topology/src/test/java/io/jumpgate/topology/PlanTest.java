package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.spi.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlanTest {

  @Test
  void should_describe_every_step_warning_and_node_load_change() {
    // Given
    Map<String, Node> nodes = nodes(2, 0);

    // When
    Plan plan = PlacementPlanner.initial(nodes, 2, 1);

    // Then
    assertThat(plan.describe())
        .containsExactly(
            "initial placement of 2 shard(s) with 1 replica(s) on 2 node(s): 2 shard(s) change,"
                + " 2 leadership(s) move, 2 replica(s) move",
            "shard 0000: leader (unassigned) -> node-00 (epoch 0), replicas (unassigned) ->"
                + " [node-01]",
            "shard 0001: leader (unassigned) -> node-01 (epoch 0), replicas (unassigned) ->"
                + " [node-00]",
            "node node-00: leaders 0 -> 1, replicas 0 -> 1",
            "node node-01: leaders 0 -> 1, replicas 0 -> 1");
  }

  @Test
  void should_round_trip_through_a_generic_json_mapper() throws Exception {
    // Given: a plan with every kind of component
    Map<String, Node> nodes = nodes(4, 2);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 64, 1).applyTo(Map.of());
    Plan plan = PlacementPlanner.removeNode(map, nodes, "node-01");
    ObjectMapper mapper = new ObjectMapper();

    // When
    String json = mapper.writeValueAsString(plan);

    // Then: plain accessors are enough for a mapper without configuration
    assertThat(mapper.readValue(json, Plan.class)).isEqualTo(plan);
    assertThat(mapper.readTree(json).fieldNames())
        .toIterable()
        .containsExactly("operation", "steps", "summary", "warnings");
  }

  @Test
  void should_describe_a_replica_change_without_leader_change() {
    PlanStep step =
        new PlanStep(
            3,
            ShardAssignment.of(3, "a", List.of("b"), 6),
            ShardAssignment.of(3, "a", List.of("c"), 6));

    assertThat(step.describe()).isEqualTo("shard 0003: leader a (epoch 6), replicas [b] -> [c]");
    assertThat(step.leaderChanged()).isFalse();
    assertThat(step.replicasAdded()).containsExactly("c");
    assertThat(step.nodesJoining()).containsExactly("c");
  }

  @Test
  void should_apply_to_the_map_it_was_computed_from_without_modifying_it() {
    // Given
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map =
        new HashMap<>(PlacementPlanner.initial(nodes, 16, 1).applyTo(Map.of()));
    Map<Integer, ShardAssignment> copy = Map.copyOf(map);

    // When
    Plan plan = PlacementPlanner.removeNode(map, nodes, "node-01");
    Map<Integer, ShardAssignment> after = plan.applyTo(map);

    // Then
    assertThat(map).isEqualTo(copy);
    assertThat(after).hasSize(16);
    assertThatThrownBy(() -> after.put(99, null)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void should_refuse_to_apply_to_a_map_that_changed_since_the_plan() {
    // Given
    Map<String, Node> nodes = nodes(3, 0);
    Map<Integer, ShardAssignment> map = PlacementPlanner.initial(nodes, 16, 1).applyTo(Map.of());
    Plan plan = PlacementPlanner.failoverShard(map, nodes, 5, null);
    Map<Integer, ShardAssignment> changed = new HashMap<>(map);
    changed.put(5, map.get(5).withNodes(map.get(5).leader(), List.of()));

    // When / Then
    assertThatThrownBy(() -> plan.applyTo(changed))
        .isInstanceOf(PlacementException.class)
        .hasMessageContaining("shard 5 changed since the plan was computed")
        .satisfies(error -> assertThat(((PlacementException) error).shard()).hasValue(5));
  }

  @Test
  void should_reject_steps_that_change_nothing_or_are_about_another_shard() {
    ShardAssignment assignment = ShardAssignment.of(3, "a", List.of("b"), 6);

    assertThatThrownBy(() -> new PlanStep(3, assignment, assignment))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("changes nothing");
    assertThatThrownBy(() -> new PlanStep(4, null, assignment))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void should_reject_steps_out_of_shard_order() {
    PlanStep first = new PlanStep(1, null, ShardAssignment.of(1, "a", List.of(), 0));
    PlanStep second = new PlanStep(2, null, ShardAssignment.of(2, "a", List.of(), 0));
    PlanSummary summary = new PlanSummary(0, 0, 0, Map.of(), Map.of());

    assertThatThrownBy(() -> new Plan("test", List.of(second, first), summary, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ascending");
  }

  @Test
  void should_reject_a_map_key_that_differs_from_the_shard_of_its_entry() {
    Map<Integer, ShardAssignment> map = Map.of(1, ShardAssignment.of(2, "node-00", List.of(), 0));

    assertThatThrownBy(() -> PlacementPlanner.rebalance(map, nodes(2, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard 1");
  }
}
