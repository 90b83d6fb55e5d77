package io.jumpgate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryTopologySourceTest {

  private final Node a = Node.of("a", "127.0.0.1", 7001);
  private final Node b = Node.of("b", "127.0.0.1", 7002);
  private final List<String> seen = new ArrayList<>();

  private void listen(InMemoryTopologySource source) {
    source.subscribe(
        (previous, next) ->
            seen.add((previous == null ? "none" : previous.revision()) + "->" + next.revision()));
  }

  @Test
  void should_spread_shards_round_robin_and_hand_the_first_map_to_listeners_at_start() {
    InMemoryTopologySource source = InMemoryTopologySource.roundRobin(8, List.of(a, b));
    listen(source);

    TopologySnapshot first = source.start().toCompletableFuture().join();

    assertThat(first.revision()).isEqualTo(1);
    assertThat(first.cluster()).isEqualTo(InMemoryTopologySource.CLUSTER);
    assertThat(first.route(0).leader()).isEqualTo(a);
    assertThat(first.route(5).leader()).isEqualTo(b);
    assertThat(source.current()).isSameAs(first);
    assertThat(seen).containsExactly("none->1");
  }

  @Test
  void should_move_leaders_to_the_next_revision_and_tell_every_listener_in_order() {
    InMemoryTopologySource source = InMemoryTopologySource.withLeaders(4, List.of(a, b), s -> a);
    listen(source);

    source.publishLeaders(shard -> shard == 2 ? b : shard == 3 ? null : a);
    source.publishLeaders(shard -> b);

    assertThat(seen).containsExactly("1->2", "2->3");
    TopologySnapshot third = source.current();
    assertThat(third.revision()).isEqualTo(3);
    assertThat(third.route(3).leader()).isEqualTo(b);
    assertThat(source.status().revision()).isEqualTo(3);
    assertThat(source.status().connected()).isTrue();
  }

  @Test
  void should_give_a_shard_without_a_leader_no_route() {
    InMemoryTopologySource source =
        InMemoryTopologySource.withLeaders(4, List.of(a), shard -> shard == 1 ? null : a);

    assertThat(source.current().route(1).isAvailable()).isFalse();
    assertThat(source.current().route(0).isAvailable()).isTrue();
  }

  @Test
  void should_refuse_a_revision_that_does_not_follow_and_a_leader_outside_the_map() {
    InMemoryTopologySource source = InMemoryTopologySource.roundRobin(4, List.of(a));
    TopologySnapshot same = source.current();

    assertThatThrownBy(() -> source.publish(same))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("revision 1 does not follow the current revision 1");
    assertThatThrownBy(() -> source.publishLeaders(shard -> b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a node of the map");
    assertThatThrownBy(() -> InMemoryTopologySource.roundRobin(4, List.of(a, a)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node id a given twice");
    assertThat(source.current()).isSameAs(same);
  }

  @Test
  void should_call_no_listener_and_refuse_publishing_once_closed() throws Exception {
    InMemoryTopologySource source = InMemoryTopologySource.roundRobin(4, List.of(a, b));
    listen(source);
    AutoCloseable second = source.subscribe((previous, next) -> seen.add("second"));
    second.close();

    source.publishLeaders(shard -> b);
    source.close();

    assertThat(seen).containsExactly("1->2");
    assertThatThrownBy(() -> source.publishLeaders(shard -> a))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
    assertThat(source.status().connected()).isFalse();
  }
}
