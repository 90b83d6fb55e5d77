package io.jumpgate.driver.internal;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Sends one command to several nodes at once and merges their answers once every node ended.
 *
 * <p>Each node gets its own command, pinned to it (a retry goes to the same node) and with its own
 * deadline. When every node answered, the answers (node id -> answer, in node id order) are merged;
 * when any failed, the result fails with {@link BroadcastFailedException} naming every failed node
 * with its own exception and carrying the others' answers. Nothing fails early: the merged outcome
 * waits for the slowest node, which its deadline bounds.
 *
 * <p>Thread-safe: nodes end on event loops concurrently; each writes only its own slot, and the
 * slots are read after the last one ended (the counter's decrement publishes them).
 */
final class Broadcast {

  /** Which nodes of the map a broadcast goes to. */
  enum Targets {
    /** Every distinct leader. */
    LEADERS("leader"),
    /** Every node, leaders and replicas. */
    ALL_NODES("node");

    private final String noun;

    Targets(String noun) {
      this.noun = noun;
    }
  }

  private static final Comparator<NodeHandle> BY_ID =
      Comparator.comparing(node -> node.node().id());

  private Broadcast() {}

  /** The nodes of the table, sorted by node id; empty when there is no table. */
  static NodeHandle[] nodes(RoutingTable table, Targets targets) {
    if (table == null) {
      return new NodeHandle[0];
    }
    NodeHandle[] nodes =
        (targets == Targets.LEADERS ? table.leaderNodes() : table.allNodes()).clone();
    Arrays.sort(nodes, BY_ID);
    return nodes;
  }

  /** The ids of the leaders of the table, sorted. */
  static List<String> leaderIds(RoutingTable table) {
    NodeHandle[] leaders = nodes(table, Targets.LEADERS);
    List<String> ids = new ArrayList<>(leaders.length);
    for (NodeHandle leader : leaders) {
      ids.add(leader.node().id());
    }
    return ids;
  }

  /**
   * Why a command has no node to go to: no shard of the map has a leader. Names the first shard and
   * its reason, as a keyed command to that shard would.
   */
  static ShardUnavailableException noNode(RoutingTable table, String command) {
    if (table == null) {
      return new ShardUnavailableException(0, 0, "no topology yet, " + command + " has no node");
    }
    String reason = table.snapshot().route(0).unavailableReason();
    return new ShardUnavailableException(
        0,
        table.revision(),
        (reason == null ? "no leader" : reason)
            + " (no shard of the map has a leader: "
            + command
            + " has no node to go to)");
  }

  /**
   * Sends the command to the targets of the map in force and merges the answers.
   *
   * @param executor the connection's executor
   * @param targets leaders or every node
   * @param type the command
   * @param args fresh arguments for one node (each node gets its own)
   * @param outputs output of one node's answer
   * @param flags routing flags (the node is pinned whatever they say)
   * @param merge the result from node id -> answer, in node id order; called once, after every node
   *     answered
   */
  static <K, V, T, R> CompletionStage<R> run(
      CommandExecutor<K, V> executor,
      Targets targets,
      ProtocolKeyword type,
      Supplier<CommandArgs<K, V>> args,
      OutputFactory<K, V, T> outputs,
      int flags,
      Function<Map<String, T>, R> merge) {
    executor.requireOpen();
    RoutingTable table = executor.dispatcher().table();
    NodeHandle[] nodes = nodes(table, targets);
    if (nodes.length == 0) {
      return CompletableFuture.failedFuture(noNode(table, type.toString()));
    }
    return run(
        type.toString(),
        targets,
        nodes,
        node -> executor.toNode(type, node, args.get(), outputs, flags),
        merge);
  }

  /**
   * Sends to each node and merges: the core of {@link #run(CommandExecutor, Targets,
   * ProtocolKeyword, Supplier, OutputFactory, int, Function)}, apart for tests.
   *
   * @param command the command's name, for the failure
   * @param nodes the nodes, sorted by id, at least one
   * @param send sends to one node; a thrown exception counts as that node's failure
   */
  static <T, R> CompletionStage<R> run(
      String command,
      Targets targets,
      NodeHandle[] nodes,
      Function<NodeHandle, CompletionStage<T>> send,
      Function<Map<String, T>, R> merge) {
    Object[] answers = new Object[nodes.length];
    Throwable[] failures = new Throwable[nodes.length];
    AtomicInteger pending = new AtomicInteger(nodes.length);
    CompletableFuture<R> result = new CompletableFuture<>();
    for (int index = 0; index < nodes.length; index++) {
      int slot = index;
      CompletionStage<T> sent;
      try {
        sent = send.apply(nodes[index]);
      } catch (RuntimeException e) {
        sent = CompletableFuture.failedFuture(e);
      }
      sent.whenComplete(
          (answer, error) -> {
            if (error == null) {
              answers[slot] = answer;
            } else {
              failures[slot] = FailureKind.unwrap(error);
            }
            if (pending.decrementAndGet() == 0) {
              finish(command, targets, nodes, answers, failures, merge, result);
            }
          });
    }
    return result;
  }

  @SuppressWarnings("unchecked")
  private static <T, R> void finish(
      String command,
      Targets targets,
      NodeHandle[] nodes,
      Object[] answers,
      Throwable[] failures,
      Function<Map<String, T>, R> merge,
      CompletableFuture<R> result) {
    Map<String, T> answered = new LinkedHashMap<>();
    Map<String, Throwable> failed = new LinkedHashMap<>();
    StringBuilder message = new StringBuilder();
    for (int index = 0; index < nodes.length; index++) {
      String id = nodes[index].node().id();
      if (failures[index] == null) {
        answered.put(id, (T) answers[index]);
        continue;
      }
      failed.put(id, failures[index]);
      message
          .append(failed.size() == 1 ? "" : "; ")
          .append(id)
          .append(" (")
          .append(nodes[index].node().address())
          .append("): ")
          .append(describe(failures[index]));
    }
    if (!failed.isEmpty()) {
      String summary =
          command
              + " failed on "
              + failed.size()
              + " of "
              + nodes.length
              + " "
              + targets.noun
              + (nodes.length == 1 ? "" : "s")
              + ": "
              + message
              + (answered.isEmpty() ? "" : "; answered: " + String.join(", ", answered.keySet()));
      result.completeExceptionally(
          new BroadcastFailedException(summary, command, failed, answered));
      return;
    }
    try {
      result.complete(merge.apply(answered));
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
  }

  private static String describe(Throwable error) {
    String text = error.getMessage();
    return error.getClass().getSimpleName() + (text == null ? "" : ": " + text);
  }
}
