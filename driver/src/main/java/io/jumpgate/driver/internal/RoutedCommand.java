package io.jumpgate.driver.internal;

import io.jumpgate.driver.Attempt;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;

/**
 * One command as the caller sees it: the future it gets back. The caller owns this future; Lettuce
 * never sees it. Lettuce writes and completes the command's tries ({@link CommandTry}), each with
 * its own output; a failed try goes to the {@link Dispatcher}, which either sends a new try or
 * fails the command with a typed exception that lists every try. Tries never overlap: a new one is
 * sent only after the previous one ended.
 *
 * <p>When the caller ends the future itself ({@code cancel}, {@code orTimeout}, {@code
 * completeExceptionally}, {@code complete}, {@code obtrude*}), the command is given up: its
 * bookkeeping (in-flight count, metrics, listener) runs once, no new try is started, and a try not
 * yet written is not written. A try already written runs its course on the server; its answer is
 * dropped.
 *
 * <p>Threading: ended by Netty event loops, the retry scheduler or the caller; {@link #markEnded()}
 * makes the end's bookkeeping run exactly once, and {@link #claimRetry} serialises the rare race
 * between a topology change and a timer starting the same next try.
 */
public final class RoutedCommand<K, V, T> extends CompletableFuture<T> {

  @SuppressWarnings("rawtypes")
  private static final AtomicIntegerFieldUpdater<RoutedCommand> ENDED_ONCE =
      AtomicIntegerFieldUpdater.newUpdater(RoutedCommand.class, "endedOnce");

  @SuppressWarnings("rawtypes")
  private static final AtomicIntegerFieldUpdater<RoutedCommand> CLAIMED_TRY =
      AtomicIntegerFieldUpdater.newUpdater(RoutedCommand.class, "claimedTry");

  private volatile int endedOnce;
  private volatile int claimedTry = 1;
  private final Dispatcher dispatcher;
  private final ProtocolKeyword type;
  private final CommandArgs<K, V> args;
  private final OutputFactory<K, V, T> outputs;
  private final RedisCodec<K, V> codec;
  private final int shard;
  private final int flags;
  private final long startNanos;
  private final long deadlineNanos;
  private final boolean callerWatchesDeadline;

  // Retry bookkeeping: written by the holder of the current try, published by the try's dispatch.
  private volatile CommandTry<K, V, T> currentTry;
  private NodeHandle target;
  private NodeHandle redirect;
  private NodeHandle fixedNode;
  private NodeHandle firstNode;
  private int[] requestShards;
  private int[] groupKeys;
  private BiConsumer<? super T, ? super Throwable> partEnd;
  private long groupGeneration;
  private long revision;
  private List<Attempt> attempts;
  private volatile boolean outcomeUnknown;

  public RoutedCommand(
      Dispatcher dispatcher,
      ProtocolKeyword type,
      CommandArgs<K, V> args,
      OutputFactory<K, V, T> outputs,
      RedisCodec<K, V> codec,
      int shard,
      int flags,
      long startNanos,
      long deadlineNanos) {
    this(dispatcher, type, args, outputs, codec, shard, flags, startNanos, deadlineNanos, false);
  }

  /**
   * @param callerWatchesDeadline true when the caller blocks on this command and ends it at its
   *     deadline itself ({@link #expireAtDeadline}), so that Lettuce arms no timer per try
   */
  public RoutedCommand(
      Dispatcher dispatcher,
      ProtocolKeyword type,
      CommandArgs<K, V> args,
      OutputFactory<K, V, T> outputs,
      RedisCodec<K, V> codec,
      int shard,
      int flags,
      long startNanos,
      long deadlineNanos,
      boolean callerWatchesDeadline) {
    this.callerWatchesDeadline = callerWatchesDeadline;
    this.dispatcher = dispatcher;
    this.type = type;
    this.args = args;
    this.outputs = outputs;
    this.codec = codec;
    this.shard = shard;
    this.flags = flags;
    this.startNanos = startNanos;
    this.deadlineNanos = deadlineNanos;
    this.currentTry = new CommandTry<>(this, 1, type, outputs.create(codec), args);
  }

  // ---- tries -----------------------------------------------------------------------------------

  /** The try in flight (or the last one). */
  CommandTry<K, V, T> currentTry() {
    return currentTry;
  }

  /** A fresh try with its own output; becomes the current try. */
  CommandTry<K, V, T> newTry(int number) {
    CommandTry<K, V, T> next = new CommandTry<>(this, number, type, outputs.create(codec), args);
    currentTry = next;
    return next;
  }

  void tryAnswered(CommandTry<K, V, T> attempt, T value) {
    succeed(value);
  }

  void tryFailed(CommandTry<K, V, T> attempt, Throwable error) {
    dispatcher.onFailure(this, attempt, error);
  }

  // ---- the end, by the driver -------------------------------------------------------------------

  /**
   * Claims the end of the command: true exactly once, for whoever answers, fails or gives it up, so
   * that the bookkeeping (in-flight count, metrics, listener) runs once and before the caller is
   * woken.
   */
  boolean markEnded() {
    return ENDED_ONCE.compareAndSet(this, 0, 1);
  }

  /** Whether the command's end was claimed (answered, failed, or given up by the caller). */
  boolean hasEnded() {
    return endedOnce != 0;
  }

  /** Ends the command with an answer. */
  void succeed(T value) {
    if (markEnded()) {
      dispatcher.answered(this);
      if (super.complete(value)) {
        partEnded(value, null);
      }
    }
  }

  /** Fails the caller's future; the end must have been claimed with {@link #markEnded()}. */
  void failFuture(Throwable error) {
    if (super.completeExceptionally(error)) {
      partEnded(null, error);
    }
  }

  /** Tells a fan-out part that its command ended (once: after the future's first completion). */
  private void partEnded(T value, Throwable error) {
    BiConsumer<? super T, ? super Throwable> end = partEnd;
    if (end != null) {
      end.accept(value, error);
    }
  }

  // ---- the end, by the caller ------------------------------------------------------------------

  @Override
  public boolean complete(T value) {
    boolean changed = super.complete(value);
    givenUpByCaller(changed);
    if (changed) {
      partEnded(value, null);
    }
    return changed;
  }

  @Override
  public boolean completeExceptionally(Throwable error) {
    boolean changed = super.completeExceptionally(error);
    givenUpByCaller(changed);
    if (changed) {
      partEnded(null, error);
    }
    return changed;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    givenUpByCaller(cancelled);
    if (cancelled) {
      partEnded(null, new java.util.concurrent.CancellationException());
    }
    return cancelled;
  }

  @Override
  public void obtrudeValue(T value) {
    super.obtrudeValue(value);
    givenUpByCaller(true);
  }

  @Override
  public void obtrudeException(Throwable error) {
    super.obtrudeException(error);
    givenUpByCaller(true);
  }

  private void givenUpByCaller(boolean changed) {
    if (changed && markEnded()) {
      dispatcher.givenUp(this);
    }
  }

  // ---- a deadline watched by a blocked caller -------------------------------------------------

  /** Whether a blocked caller ends this command at its deadline (no timer per try). */
  boolean callerWatchesDeadline() {
    return callerWatchesDeadline;
  }

  /**
   * Called by the blocked caller once the deadline passed: ends the try in flight as timed out, as
   * Lettuce's timer would have (the dispatcher then fails the command with {@code
   * CommandTimeoutException}). Returns false when there was no such try to end.
   */
  public boolean expireAtDeadline() {
    return currentTry.expireWatched();
  }

  // ---- retries ---------------------------------------------------------------------------------

  /** A failed try may have run: its outcome is unknown. */
  void markOutcomeUnknown() {
    outcomeUnknown = true;
  }

  /** Whether any try so far may have run. */
  boolean outcomeUnknown() {
    return outcomeUnknown;
  }

  /** Whether this caller may start try {@code next}; false when another path already did. */
  boolean claimRetry(int next) {
    while (true) {
      int claimed = claimedTry;
      if (claimed >= next || hasEnded()) {
        return false;
      }
      if (CLAIMED_TRY.compareAndSet(this, claimed, next)) {
        return true;
      }
    }
  }

  void recordAttempt(int number, String error, long nowNanos) {
    if (attempts == null) {
      attempts = new ArrayList<>(4);
    }
    NodeHandle node = target;
    attempts.add(
        new Attempt(
            number,
            shard,
            node == null ? null : node.node().id(),
            node == null ? null : node.node().address(),
            revision,
            error,
            Duration.ofNanos(nowNanos - startNanos)));
  }

  List<Attempt> attempts() {
    return attempts == null ? List.of() : attempts;
  }

  Dispatcher dispatcher() {
    return dispatcher;
  }

  /** The number of the current try. */
  int attempt() {
    return currentTry.number();
  }

  String commandName() {
    return type.toString();
  }

  ProtocolKeyword commandType() {
    return type;
  }

  int shard() {
    return shard;
  }

  int flags() {
    return flags;
  }

  long startNanos() {
    return startNanos;
  }

  long deadlineNanos() {
    return deadlineNanos;
  }

  void target(NodeHandle node, long topologyRevision) {
    this.target = node;
    this.revision = topologyRevision;
  }

  NodeHandle target() {
    return target;
  }

  long revision() {
    return revision;
  }

  /** A node named by MOVED for the next try only; read and cleared by the dispatcher. */
  NodeHandle takeRedirect() {
    NodeHandle node = redirect;
    redirect = null;
    return node;
  }

  void redirect(NodeHandle node) {
    this.redirect = node;
  }

  /** Pins every try to one node (broadcasts); the shard is then only informative. */
  RoutedCommand<K, V, T> pinTo(NodeHandle node) {
    this.fixedNode = node;
    return this;
  }

  NodeHandle fixedNode() {
    return fixedNode;
  }

  /**
   * Makes this a fan-out part: the first try goes to {@code node} if the table in force is still
   * the one of {@code generation} it was grouped with; any other try goes to the node that leads
   * every one of {@code shards} in the table then in force, and when they no longer share one node
   * the part fails with {@link RegroupNeededException} so that the fan-out splits its keys again.
   * (A part grouped with an older table, held by a freeze or waiting for a map, must never reach
   * the old leader once a newer table is in force: the freeze's acknowledgement counts on it.) The
   * part's shards are {@code requestShards[keys[i]]}: the shard of each key of the request, read
   * through the part's key indices (a shard may repeat), so a part keeps no copy of them.
   *
   * <p>{@code end} is told once, when the command's future first completes, on the thread that
   * completes it (in place of a {@code whenComplete} stage, which would make a future and a
   * completion object per part); it must be set before the command is sent.
   */
  RoutedCommand<K, V, T> forGroup(
      NodeHandle node,
      int[] requestShards,
      int[] keys,
      long generation,
      BiConsumer<? super T, ? super Throwable> end) {
    this.firstNode = node;
    this.requestShards = requestShards;
    this.groupKeys = keys;
    this.groupGeneration = generation;
    this.partEnd = end;
    return this;
  }

  /** The generation of the table this fan-out part was grouped with. */
  long groupGeneration() {
    return groupGeneration;
  }

  NodeHandle firstNode() {
    return firstNode;
  }

  /** Whether this command is a fan-out part ({@link #forGroup}). */
  boolean isGroup() {
    return groupKeys != null;
  }

  /** The number of keys of this fan-out part. */
  int groupSize() {
    return groupKeys.length;
  }

  /** The shard of this fan-out part's key at {@code position}. */
  int groupShard(int position) {
    return requestShards[groupKeys[position]];
  }

  @Override
  public String toString() {
    return "RoutedCommand[" + type + ", shard " + shard + ", try " + attempt() + "]";
  }
}
