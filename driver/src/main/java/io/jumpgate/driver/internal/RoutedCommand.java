package io.jumpgate.driver.internal;

import io.jumpgate.driver.Attempt;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One command as the caller sees it: the future it gets back, and also the first try that Lettuce
 * writes, so a command answered the first time costs the router no object beyond what Lettuce's own
 * API would allocate.
 *
 * <p>A failed try does not complete the future directly: it goes to the {@link Dispatcher}, which
 * either sends a new try ({@link AttemptCommand}, with a fresh output) or fails the command with a
 * typed exception that lists every try. Tries of one command never overlap: a new one is sent only
 * after the previous one ended.
 *
 * <p>Threading: ended by Netty event loops or the retry scheduler; {@link #claimRetry} serialises
 * the rare race between a topology change and a timer starting the same next try.
 */
public final class RoutedCommand<K, V, T> extends CommandTry<K, V, T> {

  @SuppressWarnings("rawtypes")
  private static final java.util.concurrent.atomic.AtomicIntegerFieldUpdater<RoutedCommand>
      ENDED_ONCE =
          java.util.concurrent.atomic.AtomicIntegerFieldUpdater.newUpdater(
              RoutedCommand.class, "endedOnce");

  private volatile int endedOnce;
  private final Dispatcher dispatcher;
  private final ProtocolKeyword type;
  private final CommandArgs<K, V> args;
  private final OutputFactory<K, V, T> outputs;
  private final RedisCodec<K, V> codec;
  private final int shard;
  private final int flags;
  private final long startNanos;
  private final long deadlineNanos;

  // Retry bookkeeping: written by the holder of the current try.
  private volatile int attempt = 1;
  private int claimedAttempt = 1;
  private NodeHandle target;
  private NodeHandle redirect;
  private NodeHandle fixedNode;
  private NodeHandle firstNode;
  private int[] groupShards;
  private long revision;
  private List<Attempt> attempts;
  private volatile boolean mayHaveRun;

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
    super(new Command<>(type, outputs.create(codec), args));
    this.dispatcher = dispatcher;
    this.type = type;
    this.args = args;
    this.outputs = outputs;
    this.codec = codec;
    this.shard = shard;
    this.flags = flags;
    this.startNanos = startNanos;
    this.deadlineNanos = deadlineNanos;
  }

  @Override
  void onAnswer(T value) {
    if (markEnded()) {
      dispatcher.answered(this);
      finishFuture(value);
    }
  }

  @Override
  void onFailure(Throwable error) {
    dispatcher.onFailure(this, 1, error);
  }

  /** Ends the command with this failure; false when it had already ended. */
  boolean fail(Throwable error) {
    return failFuture(error);
  }

  /**
   * Claims the end of the command: true exactly once, for whoever answers or fails it, so that the
   * bookkeeping (in-flight count, metrics, listener) runs once and before the caller is woken.
   */
  boolean markEnded() {
    return ENDED_ONCE.compareAndSet(this, 0, 1);
  }

  /** Ends the command with a later try's answer. */
  void succeed(T value) {
    if (markEnded()) {
      dispatcher.answered(this);
      finishFuture(value);
    }
  }

  /** A try failed in a way that leaves open whether the server ran the command. */
  void markMayHaveRun() {
    mayHaveRun = true;
  }

  boolean mayHaveRun() {
    return mayHaveRun;
  }

  /** A fresh Lettuce command for try {@code number}. */
  AttemptCommand<K, V, T> newAttempt(int number) {
    return new AttemptCommand<>(this, number, new Command<>(type, outputs.create(codec), args));
  }

  /** Whether this caller may start try {@code next}; false when another path already did. */
  synchronized boolean claimRetry(int next) {
    if (claimedAttempt >= next || isDone()) {
      return false;
    }
    claimedAttempt = next;
    attempt = next;
    return true;
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

  int attempt() {
    return attempt;
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

  @Override
  public long deadlineNanos() {
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
   * Makes this a fan-out part: the first try goes to {@code node}; a later try goes to the node
   * that serves every one of {@code shards} in the topology then in force, and when they no longer
   * share one node the part fails with {@link RegroupNeededException} so that the fan-out splits
   * its keys again.
   */
  RoutedCommand<K, V, T> forGroup(NodeHandle node, int[] shards) {
    this.firstNode = node;
    this.groupShards = shards;
    return this;
  }

  NodeHandle firstNode() {
    return firstNode;
  }

  int[] groupShards() {
    return groupShards;
  }
}
