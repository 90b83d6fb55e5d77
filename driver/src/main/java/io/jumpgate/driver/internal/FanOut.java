package io.jumpgate.driver.internal;

import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.routing.KeyGroups;
import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a multi-key command as one part per node (or per shard): every part at once, each answer
 * merged by key index, so results come back in request order.
 *
 * <p>When the map moves while parts are in flight, a part whose keys are no longer served by one
 * node is split again against the newer map and sent again (its keys only), within the command's
 * one deadline. A part that fails otherwise fails the whole command; parts already answered are not
 * undone (MSET and DEL are not atomic across nodes).
 *
 * <p>Thread-safe: parts end on event loops concurrently; each writes only its own key slots, and
 * the answer is read after every part ended (the completion of the last one publishes them).
 */
public final class FanOut {

  /** How to build each part's arguments and what to do with each part's answer. */
  public interface Plan<K, V, T, R> {
    /** The arguments of a part holding these keys (indices into the request). */
    CommandArgs<K, V> args(int[] keyIndices);

    /** A part's answer. Called concurrently for different parts. */
    void accept(int[] keyIndices, T answer);

    /** The merged answer, after every part answered. */
    R result();
  }

  private FanOut() {}

  /**
   * Runs the command over the keys.
   *
   * @param executor the connection's executor
   * @param keys the keys, none null
   * @param type the command
   * @param flags routing flags of every part
   * @param outputs output of one part
   * @param plan arguments and merging
   */
  public static <K, V, T, R> CompletionStage<R> run(
      CommandExecutor<K, V> executor,
      K[] keys,
      ProtocolKeyword type,
      int flags,
      OutputFactory<K, V, T> outputs,
      FanOutGrouping grouping,
      Plan<K, V, T, R> plan) {
    executor.requireOpen();
    int[] shards = new int[keys.length];
    for (int index = 0; index < keys.length; index++) {
      if (keys[index] == null) {
        throw new NullPointerException("keys[" + index + "]");
      }
      shards[index] = executor.shardOf(keys[index]);
    }
    long start = System.nanoTime();
    Run<K, V, T, R> run =
        new Run<>(
            executor,
            shards,
            type,
            flags,
            outputs,
            grouping,
            plan,
            start,
            start + executor.timeoutNanos());
    int[] all = new int[keys.length];
    Arrays.setAll(all, index -> index);
    run.pending.incrementAndGet();
    run.send(all);
    run.partEnded();
    return run.result;
  }

  private static final class Run<K, V, T, R> {
    final CommandExecutor<K, V> executor;
    final int[] shards;
    final ProtocolKeyword type;
    final int flags;
    final OutputFactory<K, V, T> outputs;
    final FanOutGrouping grouping;
    final Plan<K, V, T, R> plan;
    final long start;
    final long deadline;
    final AtomicInteger pending = new AtomicInteger();
    final CompletableFuture<R> result = new CompletableFuture<>();

    Run(
        CommandExecutor<K, V> executor,
        int[] shards,
        ProtocolKeyword type,
        int flags,
        OutputFactory<K, V, T> outputs,
        FanOutGrouping grouping,
        Plan<K, V, T, R> plan,
        long start,
        long deadline) {
      this.executor = executor;
      this.shards = shards;
      this.type = type;
      this.flags = flags;
      this.outputs = outputs;
      this.grouping = grouping;
      this.plan = plan;
      this.start = start;
      this.deadline = deadline;
    }

    /** Splits these keys by node (or shard) in the map in force and sends one part per group. */
    void send(int[] keyIndices) {
      RoutingTable table = executor.dispatcher().table();
      Dispatcher dispatcher = executor.dispatcher();
      NodeHandle[] target = new NodeHandle[keyIndices.length];
      for (int position = 0; position < keyIndices.length; position++) {
        int shard = shards[keyIndices[position]];
        NodeHandle node = dispatcher.nodeFor(flags, shard, table);
        if (node == null) {
          result.completeExceptionally(
              new ShardUnavailableException(
                  shard,
                  table.revision(),
                  table.snapshot().route(shard).unavailableReason() == null
                      ? "no node to read from under the read policy"
                      : table.snapshot().route(shard).unavailableReason()));
          return;
        }
        target[position] = node;
      }
      KeyGroups groups =
          KeyGroups.of(
              keyIndices.length,
              position -> position,
              position ->
                  grouping == FanOutGrouping.BY_SHARD
                      ? shards[keyIndices[position]]
                      : target[position].serial());
      dispatcher.fanOutParts(groups.groupCount());
      for (int group = 0; group < groups.groupCount(); group++) {
        int size = groups.groupSize(group);
        int[] part = new int[size];
        int[] partShards = new int[size];
        for (int position = 0; position < size; position++) {
          int inRequest = groups.keyIndex(group, position);
          part[position] = keyIndices[inRequest];
          partShards[position] = shards[keyIndices[inRequest]];
        }
        NodeHandle node = target[groups.keyIndex(group, 0)];
        pending.incrementAndGet();
        executor
            .toGroup(
                type,
                node,
                distinctShards(partShards),
                plan.args(part),
                outputs,
                flags,
                start,
                deadline)
            .whenComplete((answer, error) -> onPart(part, answer, error));
      }
    }

    void onPart(int[] part, T answer, Throwable error) {
      if (error == null) {
        plan.accept(part, answer);
      } else if (error instanceof RegroupNeededException && System.nanoTime() < deadline) {
        send(part);
      } else {
        result.completeExceptionally(error);
      }
      partEnded();
    }

    void partEnded() {
      if (pending.decrementAndGet() == 0 && !result.isDone()) {
        result.complete(plan.result());
      }
    }
  }

  /** The distinct shards of a part, ascending; primitive arrays only (no boxing). */
  static int[] distinctShards(int[] values) {
    int[] sorted = values.clone();
    Arrays.sort(sorted);
    int count = 0;
    for (int value : sorted) {
      if (count == 0 || sorted[count - 1] != value) {
        sorted[count++] = value;
      }
    }
    return count == sorted.length ? sorted : Arrays.copyOf(sorted, count);
  }
}
