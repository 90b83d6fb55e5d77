package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.driver.internal.Broadcast.Targets;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.ShardUnavailableException;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Merging a broadcast: node order, waiting for every node, and failures that name the nodes. */
class BroadcastTest {

  private static NodeHandle handle(String id, int port) {
    return new NodeHandle(Node.of(id, "127.0.0.1", port), null, null);
  }

  private final NodeHandle a = handle("a", 7001);
  private final NodeHandle b = handle("b", 7002);
  private final NodeHandle c = handle("c", 7003);
  private final NodeHandle[] nodes = {a, b, c};

  @Test
  void should_merge_the_answers_by_node_id_in_node_order() {
    Map<NodeHandle, CompletableFuture<Long>> sent = new HashMap<>();
    CompletionStage<Map<String, Long>> result =
        Broadcast.run("DBSIZE", Targets.LEADERS, nodes, futures(sent), answers -> answers);
    sent.get(c).complete(3L);
    sent.get(a).complete(1L);
    assertThat(result.toCompletableFuture()).isNotDone();
    sent.get(b).complete(2L);
    assertThat(result.toCompletableFuture().join())
        .containsExactly(Map.entry("a", 1L), Map.entry("b", 2L), Map.entry("c", 3L));
  }

  @Test
  void should_fail_naming_every_failed_node_after_every_node_ended() {
    Map<NodeHandle, CompletableFuture<String>> sent = new HashMap<>();
    CompletionStage<String> result =
        Broadcast.run("FLUSHDB", Targets.LEADERS, nodes, futures(sent), answers -> "OK");
    NodeUnavailableException down =
        new NodeUnavailableException(
            "FLUSHDB could not reach node b",
            "FLUSHDB",
            List.of(),
            io.jumpgate.driver.Outcome.NOT_RUN,
            null);
    sent.get(b).completeExceptionally(new CompletionException(down));
    assertThat(result.toCompletableFuture()).isNotDone();
    RedisCommandExecutionException refused = new RedisCommandExecutionException("ERR disabled");
    sent.get(c).completeExceptionally(refused);
    sent.get(a).complete("OK");

    assertThatThrownBy(() -> result.toCompletableFuture().join())
        .cause()
        .isInstanceOfSatisfying(
            BroadcastFailedException.class,
            failure -> {
              assertThat(failure.command()).isEqualTo("FLUSHDB");
              assertThat(failure.failures()).containsOnlyKeys("b", "c");
              assertThat(failure.failures().get("b")).isSameAs(down);
              assertThat(failure.failures().get("c")).isSameAs(refused);
              assertThat(failure.answers()).containsExactly(Map.entry("a", "OK"));
              assertThat(failure.getCause()).isSameAs(down);
              assertThat(failure.getMessage())
                  .startsWith("FLUSHDB failed on 2 of 3 leaders: b (127.0.0.1:7002): ")
                  .contains("c (127.0.0.1:7003): RedisCommandExecutionException: ERR disabled")
                  .endsWith("; answered: a");
            });
  }

  @Test
  void should_count_a_send_that_throws_as_that_nodes_failure() {
    CompletionStage<Map<String, String>> result =
        Broadcast.run(
            "PING",
            Targets.ALL_NODES,
            nodes,
            node -> {
              if (node == b) {
                throw new IllegalStateException("the Jumpgate client is closed");
              }
              return CompletableFuture.completedFuture("PONG");
            },
            answers -> answers);
    assertThatThrownBy(() -> result.toCompletableFuture().join())
        .cause()
        .isInstanceOfSatisfying(
            BroadcastFailedException.class,
            failure -> {
              assertThat(failure.failures()).containsOnlyKeys("b");
              assertThat(failure.answers()).containsOnlyKeys("a", "c");
              assertThat(failure.getMessage()).startsWith("PING failed on 1 of 3 nodes: b ");
            });
  }

  @Test
  void should_fail_with_what_the_merge_throws() {
    CompletionStage<String> result =
        Broadcast.run(
            "DBSIZE",
            Targets.LEADERS,
            new NodeHandle[] {a},
            node -> CompletableFuture.completedFuture(1L),
            answers -> {
              throw new IllegalStateException("merge broke");
            });
    assertThatThrownBy(() -> result.toCompletableFuture().join())
        .cause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("merge broke");
  }

  @Test
  void should_list_leaders_and_all_nodes_sorted_by_id_whatever_the_shard_order() {
    Node l1 = Node.of("leader-1", "127.0.0.1", 7001);
    Node l0 = Node.of("leader-0", "127.0.0.1", 7000);
    Node r1 = Node.of("replica-1", "127.0.0.1", 7011);
    Node r0 = Node.of("replica-0", "127.0.0.1", 7010);
    ShardRoute[] routes = {
      ShardRoute.of(0, l1, List.of(r1), 1, ShardState.ACTIVE, 1),
      ShardRoute.of(1, l0, List.of(r0), 1, ShardState.ACTIVE, 1),
      ShardRoute.of(2, l1, List.of(r1), 1, ShardState.ACTIVE, 1),
      ShardRoute.unavailable(3, "no assignment"),
    };
    RoutingTable table = table(routes, l1, l0, r1, r0);
    assertThat(ids(Broadcast.nodes(table, Targets.LEADERS)))
        .containsExactly("leader-0", "leader-1");
    assertThat(ids(Broadcast.nodes(table, Targets.ALL_NODES)))
        .containsExactly("leader-0", "leader-1", "replica-0", "replica-1");
    assertThat(Broadcast.leaderIds(table)).containsExactly("leader-0", "leader-1");
    // the table's own arrays are left alone
    assertThat(table.leaderNodes()[0].node().id()).isEqualTo("leader-1");
  }

  @Test
  void should_explain_that_no_shard_has_a_leader() {
    RoutingTable table =
        table(
            new ShardRoute[] {
              ShardRoute.unavailable(0, "leader 'x' is not a node"),
              ShardRoute.unavailable(1, "no assignment")
            });
    assertThat(Broadcast.nodes(table, Targets.LEADERS)).isEmpty();
    ShardUnavailableException none = Broadcast.noNode(table, "DBSIZE");
    assertThat(none.shard()).isZero();
    assertThat(none.revision()).isEqualTo(9);
    assertThat(none.getMessage())
        .contains("leader 'x' is not a node")
        .contains("no shard of the map has a leader: DBSIZE has no node to go to");
    assertThat(Broadcast.nodes(null, Targets.ALL_NODES)).isEmpty();
  }

  private static RoutingTable table(ShardRoute[] routes, Node... nodes) {
    Map<String, Node> byId = new HashMap<>();
    for (Node node : nodes) {
      byId.put(node.id(), node);
    }
    TopologySnapshot snapshot =
        TopologySnapshot.create(
            "test", 9, TopologyMetadata.of(routes.length), byId, routes, List.of(), Instant.EPOCH);
    Map<String, NodeHandle> handles = new HashMap<>();
    return new RoutingTable(
        snapshot,
        node -> handles.computeIfAbsent(node.id(), id -> new NodeHandle(node, null, null)),
        null);
  }

  private static List<String> ids(NodeHandle[] handles) {
    return java.util.Arrays.stream(handles).map(handle -> handle.node().id()).toList();
  }

  private static <T> Function<NodeHandle, CompletionStage<T>> futures(
      Map<NodeHandle, CompletableFuture<T>> sent) {
    return node -> sent.computeIfAbsent(node, key -> new CompletableFuture<>());
  }
}
