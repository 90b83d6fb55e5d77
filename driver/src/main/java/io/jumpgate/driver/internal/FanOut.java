package io.jumpgate.driver.internal;

import io.jumpgate.driver.FanOutFailedException;
import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.driver.FanOutPart;
import io.jumpgate.driver.Outcome;
import io.jumpgate.routing.KeyGroups;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.BiConsumer;

/**
 * Runs a multi-key command as one part per node (or per shard): every part at once, each answer
 * merged by key index, so results come back in request order.
 *
 * <p>When the map moves while parts are in flight, a part whose keys are no longer served by one
 * node is split again against the newer map and sent again (its keys only), within the command's
 * one deadline; past the deadline the part fails with {@link CommandTimeoutException} instead.
 *
 * <p>The call ends only after every part ended. When any part failed (its own failure, a server
 * error, an answer that could not be merged, or keys whose shard had no node and were never sent),
 * the call fails with {@link FanOutFailedException}, which lists every part with its keys, its node
 * and its {@link Outcome}; parts already answered are not undone (MSET and DEL are not atomic
 * across nodes). No internal exception reaches the caller.
 *
 * <p>Success path cost: per part, its key and shard arrays, its command and one {@code Part} (which
 * is also the command's callback); nothing per key beyond the grouping.
 *
 * <p>Thread-safe: parts end on event loops concurrently; each writes only its own key slots and its
 * own {@code Part}, and those are read after every part ended (the decrement of the pending count
 * by the last one publishes them).
 */
public final class FanOut {

  /** Group ids of frozen shards' parts: above any node serial or shard id in use. */
  private static final int HELD_GROUPS = 1 << 30;

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
    for (int index = 0; index < all.length; index++) {
      all[index] = index;
    }
    run.pending.incrementAndGet();
    run.send(all, false);
    run.partEnded();
    return run.result;
  }

  private static final class Run<K, V, T, R> {
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<Run, Part> PARTS =
        AtomicReferenceFieldUpdater.newUpdater(Run.class, Part.class, "parts");

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

    /** Every part sent (a stack, newest first); read once the last part ended. */
    volatile Part<K, V, T> parts;

    /** Set when a part failed; read once the last part ended. */
    volatile boolean anyFailed;

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

    /**
     * The part a key goes to: its node's (or shard's) part, except that the keys of each frozen
     * shard make a part of their own, held while the rest go at once.
     */
    private int groupOf(RoutingTable table, int shard, NodeHandle node) {
      if (table.hasHeld() && table.isHeld(shard)) {
        return HELD_GROUPS + shard;
      }
      return grouping == FanOutGrouping.BY_SHARD ? shard : node.serial();
    }

    /**
     * Splits these keys by node (or shard) in the map in force and sends one part per group. When a
     * key has no node, none of these keys is sent: they end as one part that was not run.
     *
     * <p>One pass over the keys picks each key's node and group (each key's shard was computed
     * once, by {@link FanOut#run}); a second fills the parts in request order. A part's shards are
     * kept as they come (repeated when keys share a shard): only a retry or a freeze reads them.
     *
     * @param earlierMayHaveRun whether an earlier try of these keys (before a regroup) may have run
     */
    void send(int[] keyIndices, boolean earlierMayHaveRun) {
      Dispatcher dispatcher = executor.dispatcher();
      RoutingTable table = dispatcher.table();
      int count = keyIndices.length;
      NodeHandle[] target = new NodeHandle[count];
      int[] groupIds = new int[count];
      for (int position = 0; position < count; position++) {
        int shard = shards[keyIndices[position]];
        NodeHandle node = dispatcher.nodeFor(flags, shard, table);
        if (node == null) {
          String reason = table.snapshot().route(shard).unavailableReason();
          Part<K, V, T> unsent = new Part<>(this, keyIndices, null, earlierMayHaveRun);
          push(unsent);
          unsent.end(
              earlierMayHaveRun ? Outcome.UNKNOWN : Outcome.NOT_RUN,
              new ShardUnavailableException(
                  shard,
                  table.revision(),
                  reason == null ? "no node to read from under the read policy" : reason));
          return;
        }
        target[position] = node;
        groupIds[position] = groupOf(table, shard, node);
      }
      int[][] positions = groupInOnePass(groupIds, MAX_ONE_PASS_GROUPS);
      if (positions == null) {
        positions = groupSorted(groupIds);
      }
      dispatcher.fanOutParts(positions.length);
      for (int[] partPositions : positions) {
        int size = partPositions.length;
        int[] keysOfPart = new int[size];
        int[] partShards = new int[size];
        for (int position = 0; position < size; position++) {
          int inRequest = keyIndices[partPositions[position]];
          keysOfPart[position] = inRequest;
          partShards[position] = shards[inRequest];
        }
        sendPart(target[partPositions[0]], keysOfPart, partShards, table, earlierMayHaveRun);
      }
    }

    private void sendPart(
        NodeHandle node,
        int[] keysOfPart,
        int[] partShards,
        RoutingTable table,
        boolean earlierMayHaveRun) {
      Part<K, V, T> part = new Part<>(this, keysOfPart, node, earlierMayHaveRun);
      push(part);
      pending.incrementAndGet();
      RoutedCommand<K, V, T> command;
      try {
        command =
            executor.toGroup(
                type,
                node,
                partShards,
                table.generation(),
                plan.args(keysOfPart),
                outputs,
                flags,
                start,
                deadline);
      } catch (RuntimeException e) {
        // nothing of this part was handed to the dispatcher
        part.accept(null, e);
        return;
      }
      part.command = command;
      command.whenComplete(part);
    }

    private void push(Part<K, V, T> part) {
      Part<K, V, T> head;
      do {
        head = parts;
        part.next = head;
      } while (!PARTS.compareAndSet(this, head, part));
    }

    void onPart(Part<K, V, T> part, T answer, Throwable error) {
      try {
        if (error == null) {
          try {
            plan.accept(part.keyIndices, answer);
            part.outcome = Outcome.APPLIED;
          } catch (RuntimeException e) {
            part.end(
                Outcome.APPLIED,
                FanOutFailures.mergeFailure(type.toString(), part.node, part.keyIndices, e));
          }
          return;
        }
        Throwable cause = FailureKind.unwrap(error);
        boolean mayHaveRun = part.mayHaveRun();
        if (cause instanceof RegroupNeededException) {
          if (System.nanoTime() < deadline) {
            part.regrouped = true;
            send(part.keyIndices, mayHaveRun);
          } else {
            part.end(
                mayHaveRun ? Outcome.UNKNOWN : Outcome.NOT_RUN,
                FanOutFailures.regroupTooLate(
                    type.toString(),
                    part.node,
                    part.keyIndices,
                    executor.timeoutNanos(),
                    part.command == null ? List.of() : part.command.attempts(),
                    mayHaveRun));
          }
          return;
        }
        part.end(FanOutFailures.outcomeOf(cause, mayHaveRun), cause);
      } catch (RuntimeException e) {
        // a bug of ours must not leave the call pending: the part ends with it
        part.regrouped = false;
        part.end(Outcome.UNKNOWN, e);
      } finally {
        partEnded();
      }
    }

    void partEnded() {
      if (pending.decrementAndGet() != 0) {
        return;
      }
      if (anyFailed) {
        result.completeExceptionally(failure());
        return;
      }
      try {
        result.complete(plan.result());
      } catch (RuntimeException e) {
        result.completeExceptionally(
            new JumpgateException(type + ": merging the answers failed", e));
      }
    }

    /** The failure of the call, every part listed in key order; after the last part ended. */
    private FanOutFailedException failure() {
      List<Part<K, V, T>> ended = new ArrayList<>();
      for (Part<K, V, T> part = parts; part != null; part = part.next) {
        if (!part.regrouped) {
          ended.add(part);
        }
      }
      ended.sort(Comparator.comparingInt(part -> part.keyIndices[0]));
      List<FanOutPart> described = new ArrayList<>(ended.size());
      for (Part<K, V, T> part : ended) {
        described.add(FanOutFailures.part(part.node, part.keyIndices, part.outcome, part.error));
      }
      return FanOutFailures.failure(type.toString(), described);
    }
  }

  /**
   * One part: the keys sent together to one node, and how they ended. Completes the part's command
   * (it is the callback, in place of a lambda: no extra object on the success path).
   */
  static final class Part<K, V, T> implements BiConsumer<T, Throwable> {
    final Run<K, V, T, ?> run;
    final int[] keyIndices;
    final NodeHandle node;
    final boolean earlierMayHaveRun;

    /** Set before the callback is registered. */
    RoutedCommand<K, V, T> command;

    Part<K, V, T> next;

    // written by the thread that ends the part, read after the last part ended
    Outcome outcome;
    Throwable error;
    boolean regrouped;

    Part(Run<K, V, T, ?> run, int[] keyIndices, NodeHandle node, boolean earlierMayHaveRun) {
      this.run = run;
      this.keyIndices = keyIndices;
      this.node = node;
      this.earlierMayHaveRun = earlierMayHaveRun;
    }

    @Override
    public void accept(T answer, Throwable failure) {
      run.onPart(this, answer, failure);
    }

    void end(Outcome outcome, Throwable error) {
      this.outcome = outcome;
      this.error = error;
      run.anyFailed = true;
    }

    boolean mayHaveRun() {
      return earlierMayHaveRun || (command != null && command.outcomeUnknown());
    }
  }

  /** Distinct groups of one fan-out that one pass handles; more are grouped by sorting. */
  static final int MAX_ONE_PASS_GROUPS = 16;

  /**
   * Groups positions {@code 0 .. groupIds.length - 1} by their group id in one pass over them (a
   * counting sort): for each distinct id, in order of its first appearance, the positions that
   * carry it, ascending. Returns null when there are more than {@code maxGroups} distinct ids (a
   * fan-out by shard over many shards), for {@link #groupSorted} to do instead. Primitive arrays
   * only; a few comparisons per position (one per group seen so far).
   */
  static int[][] groupInOnePass(int[] groupIds, int maxGroups) {
    int count = groupIds.length;
    int[] distinct = new int[Math.min(maxGroups, count)];
    int[] sizes = new int[distinct.length];
    int[] groupOfPosition = new int[count];
    int groups = 0;
    for (int position = 0; position < count; position++) {
      int id = groupIds[position];
      int group = 0;
      while (group < groups && distinct[group] != id) {
        group++;
      }
      if (group == groups) {
        if (groups == distinct.length) {
          return null;
        }
        distinct[groups++] = id;
      }
      groupOfPosition[position] = group;
      sizes[group]++;
    }
    int[][] positions = new int[groups][];
    for (int group = 0; group < groups; group++) {
      positions[group] = new int[sizes[group]];
      sizes[group] = 0;
    }
    for (int position = 0; position < count; position++) {
      int group = groupOfPosition[position];
      positions[group][sizes[group]++] = position;
    }
    return positions;
  }

  /**
   * The same grouping as {@link #groupInOnePass}, for any number of groups, by sorting: groups in
   * ascending id, positions ascending inside each.
   */
  static int[][] groupSorted(int[] groupIds) {
    KeyGroups groups =
        KeyGroups.of(groupIds.length, position -> position, position -> groupIds[position]);
    int[][] positions = new int[groups.groupCount()][];
    for (int group = 0; group < positions.length; group++) {
      positions[group] = new int[groups.groupSize(group)];
      for (int position = 0; position < positions[group].length; position++) {
        positions[group][position] = groups.keyIndex(group, position);
      }
    }
    return positions;
  }
}
