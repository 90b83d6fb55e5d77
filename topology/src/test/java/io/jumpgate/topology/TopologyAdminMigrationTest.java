package io.jumpgate.topology;

import static io.jumpgate.topology.PlacementFixtures.nodes;
import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import io.jumpgate.topology.internal.KeyChange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The admin's verbs leave migrating and frozen shards to the mover. */
class TopologyAdminMigrationTest {

  private static final TopologyAdminOptions OPTIONS = TopologyAdminOptions.defaults();
  private static final int SHARDS = 16;
  private static final Map<Integer, ShardAssignment> INITIAL =
      PlacementPlanner.initial(nodes(3, 0), SHARDS, 1).applyTo(Map.of());

  /** The first shard that node-02 neither leads nor replicates: frozen towards node-02. */
  private static final int FROZEN =
      INITIAL.values().stream()
          .filter(assignment -> !assignment.involves("node-02"))
          .findFirst()
          .orElseThrow()
          .shard();

  private static final String REFUSAL =
      "shard "
          + FROZEN
          + " is frozen (migration 'm1' to node 'node-02'): it cannot be changed until that"
          + " migration is finished or aborted";

  /** 3 nodes, 16 shards with one replica each; shard FROZEN frozen by m1 to node-02. */
  private static TopologyAdminState state(Map<String, Node> nodes) {
    Map<Integer, ShardAssignment> map = new TreeMap<>(INITIAL);
    ShardAssignment before = map.get(FROZEN);
    map.put(
        FROZEN,
        new ShardAssignment(
            FROZEN,
            before.leader(),
            before.replicas(),
            before.epoch(),
            ShardState.FROZEN,
            new ShardAssignment.Migration("m1", "node-02")));
    List<KeyChange> listing = new ArrayList<>();
    long revision = 10;
    listing.add(
        KeyChange.put(
            KEYS.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(SHARDS)), revision++));
    for (Node node : new TreeMap<>(nodes).values()) {
      listing.add(KeyChange.put(KEYS.node(node.id()), TopologyCodec.encodeNode(node), revision++));
    }
    for (ShardAssignment assignment : map.values()) {
      listing.add(
          KeyChange.put(
              KEYS.shard(assignment.shard()),
              TopologyCodec.encodeAssignment(assignment),
              revision++));
    }
    return TopologyAdminState.decode(KEYS, revision, listing);
  }

  private static TopologyAdminState state() {
    return state(nodes(3, 0));
  }

  @Test
  void should_refuse_to_move_a_frozen_shard_naming_shard_migration_and_target() {
    assertThatThrownBy(() -> TopologyAdmin.moveShardPlan(KEYS, state(), FROZEN, "node-02", OPTIONS))
        .isInstanceOf(PlacementException.class)
        .hasMessage(REFUSAL)
        .satisfies(
            e -> {
              assertThat(((PlacementException) e).shard()).hasValue(FROZEN);
              assertThat(((PlacementException) e).nodeId()).contains("node-02");
            });
  }

  @Test
  void should_refuse_to_fail_a_frozen_shard_over() {
    assertThatThrownBy(() -> TopologyAdmin.failoverShardPlan(KEYS, state(), FROZEN, null, OPTIONS))
        .isInstanceOf(PlacementException.class)
        .hasMessage(REFUSAL);
  }

  @Test
  void should_refuse_to_remove_the_target_of_a_migration() {
    assertThatThrownBy(() -> TopologyAdmin.removeNodePlan(KEYS, state(), "node-02", OPTIONS))
        .isInstanceOf(PlacementException.class)
        .hasMessage(REFUSAL);
  }

  @Test
  void should_refuse_an_add_node_whose_plan_touches_a_frozen_shard() {
    Node added = Node.of("node-03", "127.0.0.1", 7003);

    assertThatThrownBy(() -> TopologyAdmin.addNodePlan(KEYS, state(), added, OPTIONS))
        .isInstanceOf(PlacementException.class)
        .hasMessage(REFUSAL);
  }

  @Test
  void should_plan_the_entry_of_an_added_node_while_its_full_plan_touches_a_frozen_shard() {
    // The add-node run again after a mover stopped: its entry is written alone first, whatever
    // state the shards it will lead are in (the mover finishes their migration next).
    Node added = Node.of("node-03", "127.0.0.1", 7003);

    TopologyAdminPlan entry = TopologyAdmin.addNodeEntryPlan(KEYS, state(), added, OPTIONS);

    assertThat(entry.plan().steps()).isEmpty();
    assertThat(entry.nodeChanges()).containsExactly(new NodeChange("node-03", added));
    Map<String, Node> withEntry = new TreeMap<>(nodes(3, 0));
    withEntry.put("node-03", added);
    assertThat(
            TopologyAdmin.addNodeEntryPlan(KEYS, state(withEntry), added, OPTIONS).changesNothing())
        .isTrue();
  }

  @Test
  void should_move_other_shards_and_leave_the_frozen_shard_as_it_is() {
    TopologyAdminState state = state();
    int other =
        state.assignments().values().stream()
            .filter(assignment -> assignment.shard() != FROZEN)
            .filter(assignment -> !assignment.involves("node-02"))
            .findFirst()
            .orElseThrow()
            .shard();

    TopologyAdminPlan plan = TopologyAdmin.moveShardPlan(KEYS, state, other, "node-02", OPTIONS);

    assertThat(plan.writes()).extracting(KeyWrite::key).doesNotContain(KEYS.shard(FROZEN));
    assertThat(plan.writes()).isNotEmpty();
  }

  @Test
  void should_keep_state_and_migration_when_a_verb_rewrites_a_shard_it_does_not_move() {
    ShardAssignment frozen =
        new ShardAssignment(
            5,
            "node-00",
            List.of("node-01"),
            3,
            ShardState.FROZEN,
            new ShardAssignment.Migration("m1", "node-02"));

    ShardAssignment written =
        TopologyCodec.decodeAssignment(
            5,
            TopologyCodec.encodeAssignment(frozen.withNodes("node-00", List.of("node-01")))
                .clone());

    assertThat(written).isEqualTo(frozen);
    assertThat(new String(TopologyCodec.encodeAssignment(written), StandardCharsets.UTF_8))
        .contains("\"state\":\"frozen\",\"migration\":{\"id\":\"m1\",\"to\":\"node-02\"}");
  }
}
