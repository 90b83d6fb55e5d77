package io.jumpgate.driver.internal;

import io.lettuce.core.RedisException;
import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CompleteableCommand;
import io.lettuce.core.protocol.DecoratedCommand;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One try of a command as Lettuce sees it: wraps a Lettuce command (type, arguments, output) and
 * turns Lettuce's signals into exactly one {@link #onAnswer} or {@link #onFailure} per try.
 *
 * <p>Lettuce signals a try's end in several ways: {@code complete()} when the reply was read (an
 * error reply included), {@code completeExceptionally} for timeouts and broken connections, and
 * {@code cancel()} when the connection drops commands. The first signal wins; later ones (a reply
 * that arrives after its timeout, say) are ignored. The future part of this object ({@link
 * CompletableFuture}) is the caller's for a {@link RoutedCommand}, and only a done-marker for a
 * retry.
 */
abstract class CommandTry<K, V, T> extends CompletableFuture<T>
    implements RedisCommand<K, V, T>,
        CompleteableCommand<T>,
        DecoratedCommand<K, V, T>,
        HasDeadline {

  private static final AtomicIntegerFieldUpdater<CommandTry> ENDED =
      AtomicIntegerFieldUpdater.newUpdater(CommandTry.class, "ended");

  private final RedisCommand<K, V, T> command;
  private volatile int ended;

  CommandTry(RedisCommand<K, V, T> command) {
    this.command = command;
  }

  /** The try's answer: the server replied without an error. */
  abstract void onAnswer(T value);

  /** The try failed: an error reply, a timeout, a broken connection. */
  abstract void onFailure(Throwable error);

  private boolean end() {
    return ENDED.compareAndSet(this, 0, 1);
  }

  /** Whether this try already ended (answered or failed). */
  boolean tryEnded() {
    return ended != 0;
  }

  /** Ends the try as failed when nothing else ended it first; for failures outside Lettuce. */
  void failTry(Throwable error) {
    if (end()) {
      onFailure(error);
    }
  }

  @Override
  public void complete() {
    if (!end()) {
      return;
    }
    CommandOutput<K, V, T> output = command.getOutput();
    command.complete();
    if (output != null && output.hasError()) {
      onFailure(ExceptionFactory.createExecutionException(output.getError()));
    } else {
      onAnswer(output == null ? null : output.get());
    }
  }

  @Override
  public boolean completeExceptionally(Throwable error) {
    if (!end()) {
      return false;
    }
    command.completeExceptionally(error);
    onFailure(error);
    return true;
  }

  /** Lettuce dropped the command (e.g. its connection was reset): its fate is unknown. */
  @Override
  public void cancel() {
    if (end()) {
      command.cancel();
      onFailure(new RedisException("the command was dropped by its connection"));
    }
  }

  /** Completes the future itself, bypassing the try logic. */
  final boolean finishFuture(T value) {
    return super.complete(value);
  }

  /** Fails the future itself, bypassing the try logic. */
  final boolean failFuture(Throwable error) {
    return super.completeExceptionally(error);
  }

  @Override
  public CommandOutput<K, V, T> getOutput() {
    return command.getOutput();
  }

  @Override
  public CommandArgs<K, V> getArgs() {
    return command.getArgs();
  }

  @Override
  public ProtocolKeyword getType() {
    return command.getType();
  }

  @Override
  public void encode(ByteBuf buffer) {
    command.encode(buffer);
  }

  @Override
  public void setOutput(CommandOutput<K, V, T> output) {
    command.setOutput(output);
  }

  @Override
  public RedisCommand<K, V, T> getDelegate() {
    return command;
  }

  @Override
  public void onComplete(Consumer<? super T> action) {
    thenAccept(action);
  }

  @Override
  public void onComplete(BiConsumer<? super T, Throwable> action) {
    whenComplete(action);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + command.getType() + ", ended=" + (ended != 0) + "]";
  }
}
