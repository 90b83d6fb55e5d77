package io.jumpgate.driver.internal;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * What the command implementations of one connection (one codec) build on: making arguments,
 * routing a key to its shard, and handing the command to the {@link Dispatcher}. Immutable and
 * thread-safe.
 */
public final class CommandExecutor<K, V> {

  private final RedisCodec<K, V> codec;
  private final KeyRouter<K> keys;
  private final Dispatcher dispatcher;
  private final long timeoutNanos;
  private final boolean blockingCaller;

  public CommandExecutor(
      RedisCodec<K, V> codec, KeyRouter<K> keys, Dispatcher dispatcher, long timeoutNanos) {
    this(codec, keys, dispatcher, timeoutNanos, false);
  }

  private CommandExecutor(
      RedisCodec<K, V> codec,
      KeyRouter<K> keys,
      Dispatcher dispatcher,
      long timeoutNanos,
      boolean blockingCaller) {
    this.codec = codec;
    this.keys = keys;
    this.dispatcher = dispatcher;
    this.timeoutNanos = timeoutNanos;
    this.blockingCaller = blockingCaller;
  }

  /**
   * The same executor for the blocking view: a command it sends to one shard ({@link #toShard}) is
   * awaited by its caller, which ends it at its deadline itself ({@link Views}), so Lettuce arms no
   * timer for its tries. Fan-out parts and broadcasts keep their timers (their caller waits for the
   * merged answer, not for them).
   */
  public CommandExecutor<K, V> forBlockingCaller() {
    return new CommandExecutor<>(codec, keys, dispatcher, timeoutNanos, true);
  }

  public RedisCodec<K, V> codec() {
    return codec;
  }

  public Dispatcher dispatcher() {
    return dispatcher;
  }

  public long timeoutNanos() {
    return timeoutNanos;
  }

  /** Empty arguments for this codec. */
  public CommandArgs<K, V> args() {
    return new CommandArgs<>(codec);
  }

  /** Arguments starting with the key. */
  public CommandArgs<K, V> args(K key) {
    return new CommandArgs<>(codec).addKey(Objects.requireNonNull(key, "key"));
  }

  /** The key's shard; the key must not be null. */
  public int shardOf(K key) {
    return keys.shardOf(Objects.requireNonNull(key, "key"));
  }

  /** Every key's shard, at the key's index; no key may be null (see {@link KeyRouter#shardsOf}). */
  public void shardsOf(K[] keys, int[] shards) {
    this.keys.shardsOf(keys, shards);
  }

  /** Sends a command routed by its key. */
  public <T> RoutedCommand<K, V, T> keyed(
      ProtocolKeyword type,
      K key,
      CommandArgs<K, V> args,
      OutputFactory<K, V, T> outputs,
      int flags) {
    return toShard(type, shardOf(key), args, outputs, flags);
  }

  /** Sends a command to one node, whatever the shards (broadcasts). */
  public <T> RoutedCommand<K, V, T> toNode(
      ProtocolKeyword type,
      NodeHandle node,
      CommandArgs<K, V> args,
      OutputFactory<K, V, T> outputs,
      int flags) {
    requireOpen();
    long now = dispatcher.nanoTime();
    return dispatcher.send(
        new RoutedCommand<>(
                dispatcher, type, args, outputs, codec, -1, flags, now, now + timeoutNanos)
            .pinTo(node));
  }

  /**
   * One part of a fan-out, not sent yet (send it with {@link Dispatcher#send}): see {@link
   * RoutedCommand#forGroup}.
   */
  public <T> RoutedCommand<K, V, T> groupPart(
      ProtocolKeyword type,
      NodeHandle node,
      int[] requestShards,
      int[] keys,
      long generation,
      CommandArgs<K, V> args,
      OutputFactory<K, V, T> outputs,
      int flags,
      long startNanos,
      long deadlineNanos,
      BiConsumer<? super T, ? super Throwable> end) {
    return new RoutedCommand<>(
            dispatcher,
            type,
            args,
            outputs,
            codec,
            requestShards[keys[0]],
            flags,
            startNanos,
            deadlineNanos)
        .forGroup(node, requestShards, keys, generation, end);
  }

  /** Throws when the client was closed: calls after close fail before anything is sent. */
  public void requireOpen() {
    if (dispatcher.isClosed()) {
      throw new IllegalStateException("the Jumpgate client is closed");
    }
  }

  /** Sends a command to the node that serves a shard. */
  public <T> RoutedCommand<K, V, T> toShard(
      ProtocolKeyword type,
      int shard,
      CommandArgs<K, V> args,
      OutputFactory<K, V, T> outputs,
      int flags) {
    requireOpen();
    long now = dispatcher.nanoTime();
    return dispatcher.send(
        new RoutedCommand<>(
            dispatcher,
            type,
            args,
            outputs,
            codec,
            shard,
            flags,
            now,
            now + timeoutNanos,
            blockingCaller));
  }
}
