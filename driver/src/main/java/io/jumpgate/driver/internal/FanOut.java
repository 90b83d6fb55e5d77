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
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
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
 * <p>Success path cost: per key, its shard (an {@code int}, hashed once) and its part (a {@code
 * byte}); per part, its key index array (its shards are read through it from the request's), its
 * arguments ({@link PartArguments}: the keys written from the request), its command and one {@code
 * Part} (which is also the command's end listener: no completion stage). Nothing boxed, nothing
 * sorted (up to {@link #MAX_ONE_PASS_GROUPS} parts).
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
    for (int index = 0; index < keys.length; index++) {
      if (keys[index] == null) {
        throw new NullPointerException("keys[" + index + "]");
      }
    }
    int[] shards = new int[keys.length];
    executor.shardsOf(keys, shards);
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
    // one count for this call itself, so that no part can end the call before every part is sent
    run.addPending(1);
    run.send(null, false);
    run.partEnded();
    return run.result;
  }

  private static final class Run<K, V, T, R> {
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<Run, Part> PARTS =
        AtomicReferenceFieldUpdater.newUpdater(Run.class, Part.class, "parts");

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<Run> PENDING =
        AtomicIntegerFieldUpdater.newUpdater(Run.class, "pending");

    final CommandExecutor<K, V> executor;
    final int[] shards;
    final ProtocolKeyword type;
    final int flags;
    final OutputFactory<K, V, T> outputs;
    final FanOutGrouping grouping;
    final Plan<K, V, T, R> plan;
    final long start;
    final long deadline;

    /** Parts sent and not ended yet, plus one while a send is under way. */
    volatile int pending;

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
     * <p>One pass over the keys picks each key's node and its part (each key's shard was computed
     * once, by {@link FanOut#run}; a part is found among the few seen so far by comparing its id);
     * a second fills each part's key index array in request order, sized exactly. Per key, one byte
     * (its part) is kept between the passes; nothing is boxed or sorted. A part's shards are not
     * copied: a retry or a freeze (the only readers) reads them through its key indices from the
     * request's shards, repeats included. Past {@link #MAX_ONE_PASS_GROUPS} parts ({@code BY_SHARD}
     * over many shards) the keys are grouped by sorting instead.
     *
     * @param keyIndices the keys, as indices into the request; null for every key of the request
     * @param earlierMayHaveRun whether an earlier try of these keys (before a regroup) may have run
     */
    void send(int[] keyIndices, boolean earlierMayHaveRun) {
      Dispatcher dispatcher = executor.dispatcher();
      RoutingTable table = dispatcher.table();
      int count = keyIndices == null ? shards.length : keyIndices.length;
      int limit = Math.min(MAX_ONE_PASS_GROUPS, count);
      int[] partIds = new int[limit];
      NodeHandle[] partNodes = new NodeHandle[limit];
      int[] partSizes = new int[limit];
      byte[] partOfPosition = new byte[count];
      int parts = 0;
      for (int position = 0; position < count; position++) {
        int shard = shards[keyIndices == null ? position : keyIndices[position]];
        NodeHandle node = dispatcher.nodeFor(flags, shard, table);
        if (node == null) {
          sendNone(keyIndices, shard, table, earlierMayHaveRun);
          return;
        }
        int id = groupOf(table, shard, node);
        int part = 0;
        while (part < parts && partIds[part] != id) {
          part++;
        }
        if (part == parts) {
          if (parts == limit) {
            sendSorted(keyIndices, table, earlierMayHaveRun);
            return;
          }
          partIds[part] = id;
          partNodes[part] = node;
          parts++;
        }
        partOfPosition[position] = (byte) part;
        partSizes[part]++;
      }
      int[][] keysOfParts = new int[parts][];
      for (int part = 0; part < parts; part++) {
        keysOfParts[part] = new int[partSizes[part]];
        partSizes[part] = 0;
      }
      for (int position = 0; position < count; position++) {
        int part = partOfPosition[position];
        keysOfParts[part][partSizes[part]++] = keyIndices == null ? position : keyIndices[position];
      }
      dispatcher.fanOutParts(parts);
      addPending(parts);
      for (int part = 0; part < parts; part++) {
        sendPart(partNodes[part], keysOfParts[part], table, earlierMayHaveRun);
      }
    }

    /**
     * {@link #send} for more parts than one pass handles: each key's node and group, then the keys
     * sorted by group (groups in ascending id, keys in request order inside each).
     */
    private void sendSorted(int[] keyIndices, RoutingTable table, boolean earlierMayHaveRun) {
      Dispatcher dispatcher = executor.dispatcher();
      int count = keyIndices == null ? shards.length : keyIndices.length;
      NodeHandle[] target = new NodeHandle[count];
      int[] groupIds = new int[count];
      for (int position = 0; position < count; position++) {
        int shard = shards[keyIndices == null ? position : keyIndices[position]];
        NodeHandle node = dispatcher.nodeFor(flags, shard, table);
        if (node == null) {
          sendNone(keyIndices, shard, table, earlierMayHaveRun);
          return;
        }
        target[position] = node;
        groupIds[position] = groupOf(table, shard, node);
      }
      int[][] positions = groupSorted(groupIds);
      dispatcher.fanOutParts(positions.length);
      addPending(positions.length);
      for (int[] partPositions : positions) {
        int size = partPositions.length;
        int[] keysOfPart = new int[size];
        for (int position = 0; position < size; position++) {
          keysOfPart[position] =
              keyIndices == null ? partPositions[position] : keyIndices[partPositions[position]];
        }
        sendPart(target[partPositions[0]], keysOfPart, table, earlierMayHaveRun);
      }
    }

    /** None of these keys is sent, because this shard has no node: they end as one part. */
    private void sendNone(
        int[] keyIndices, int shard, RoutingTable table, boolean earlierMayHaveRun) {
      int[] keysOfPart = keyIndices;
      if (keysOfPart == null) {
        keysOfPart = new int[shards.length];
        for (int index = 0; index < keysOfPart.length; index++) {
          keysOfPart[index] = index;
        }
      }
      String reason = table.snapshot().route(shard).unavailableReason();
      Part<K, V, T> unsent = new Part<>(this, keysOfPart, null, earlierMayHaveRun);
      push(unsent);
      unsent.end(
          earlierMayHaveRun ? Outcome.UNKNOWN : Outcome.NOT_RUN,
          new ShardUnavailableException(
              shard,
              table.revision(),
              reason == null ? "no node to read from under the read policy" : reason));
    }

    private void sendPart(
        NodeHandle node, int[] keysOfPart, RoutingTable table, boolean earlierMayHaveRun) {
      Part<K, V, T> part = new Part<>(this, keysOfPart, node, earlierMayHaveRun);
      push(part); // counted in `pending` by the caller
      RoutedCommand<K, V, T> command;
      try {
        command =
            executor.groupPart(
                type,
                node,
                shards,
                keysOfPart,
                table.generation(),
                plan.args(keysOfPart),
                outputs,
                flags,
                start,
                deadline,
                part);
      } catch (RuntimeException e) {
        // nothing of this part was handed to the dispatcher
        part.accept(null, e);
        return;
      }
      // set before the send: the part's end may run during it (a failure found at once)
      part.command = command;
      executor.dispatcher().send(command);
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

    void addPending(int parts) {
      PENDING.addAndGet(this, parts);
    }

    void partEnded() {
      if (PENDING.decrementAndGet(this) != 0) {
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
   * One part: the keys sent together to one node, and how they ended. Told by the part's command
   * when it ended ({@link RoutedCommand#forGroup}: no lambda and no completion stage per part).
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

  /** Parts of one fan-out that one pass handles (at most 127: a byte per key); more are sorted. */
  static final int MAX_ONE_PASS_GROUPS = 16;

  /**
   * Groups positions {@code 0 .. groupIds.length - 1} by their group id, for any number of groups,
   * by sorting: groups in ascending id, positions ascending inside each.
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
