package io.jumpgate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardRouteTest {

  private final Node a = Node.of("a", "127.0.0.1", 7001);
  private final Node b = Node.of("b", "127.0.0.1", 7002);

  @Test
  void should_build_an_available_route_with_copied_replicas() {
    List<Node> replicas = new ArrayList<>(List.of(b));
    ShardRoute route = ShardRoute.of(3, a, replicas, 2, ShardState.ACTIVE, 40);
    replicas.clear();

    assertThat(route.isAvailable()).isTrue();
    assertThat(route.replicas()).containsExactly(b);
    assertThat(route.migration()).isNull();
    assertThat(route.unavailableReason()).isNull();
  }

  @Test
  void should_build_an_unavailable_route_with_its_reason() {
    ShardRoute route = ShardRoute.unavailable(5, "leader 'x' is not a node");

    assertThat(route.isAvailable()).isFalse();
    assertThat(route.leader()).isNull();
    assertThat(route.replicas()).isEmpty();
    assertThat(route.unavailableReason()).isEqualTo("leader 'x' is not a node");
  }

  @Test
  void should_refuse_a_negative_shard_or_epoch_naming_it() {
    assertThatThrownBy(() -> ShardRoute.of(-1, a, List.of(), 0, ShardState.ACTIVE, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shard must be at least 0, was -1");
    assertThatThrownBy(() -> ShardRoute.of(4, a, List.of(), -1, ShardState.ACTIVE, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("epoch of shard 4 must be at least 0");
  }

  @Test
  void should_refuse_a_leader_that_is_also_a_replica() {
    assertThatThrownBy(() -> ShardRoute.of(1, a, List.of(b, a), 0, ShardState.ACTIVE, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leader 'a' of shard 1 is also a replica");
  }

  @Test
  void should_refuse_a_route_without_leader_and_reason_or_with_both() {
    assertThatThrownBy(
            () -> new ShardRoute(2, null, List.of(), 0, ShardState.ACTIVE, null, 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shard 2 has no leader: give the reason it is unavailable");
    assertThatThrownBy(() -> new ShardRoute(2, a, List.of(), 0, ShardState.ACTIVE, 0, "gone"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shard 2 has a leader and a reason");
    assertThatThrownBy(() -> new ShardRoute(2, null, List.of(b), 0, ShardState.ACTIVE, 0, "gone"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unavailable shard 2 cannot have replicas");
  }

  @Test
  void should_accept_a_migration_only_while_migrating_or_frozen_to_another_node() {
    ShardMigration toB = new ShardMigration("m1", b);

    assertThat(ShardRoute.of(0, a, List.of(), 0, ShardState.FROZEN, toB, 0).migration())
        .isEqualTo(toB);
    assertThatThrownBy(() -> ShardRoute.of(0, a, List.of(), 0, ShardState.ACTIVE, toB, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "active shard 0 cannot have a migration (only a migrating or frozen shard has one)");
    assertThatThrownBy(
            () ->
                ShardRoute.of(
                    0, a, List.of(), 0, ShardState.MIGRATING, new ShardMigration("m2", a), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("migration 'm2' of shard 0 moves it to its own leader 'a'");
    assertThatThrownBy(
            () -> new ShardRoute(0, null, List.of(), 0, ShardState.FROZEN, toB, 0, "gone"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unavailable shard 0 cannot have a migration");
  }

  @Test
  void should_name_the_missing_state_and_leader() {
    assertThatThrownBy(() -> ShardRoute.of(0, a, List.of(), 0, null, 0)).hasMessage("state");
    assertThatThrownBy(() -> ShardRoute.of(0, null, List.of(), 0, ShardState.ACTIVE, 0))
        .hasMessage("leader");
  }
}
