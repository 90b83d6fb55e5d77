package io.jumpgate.driver.internal;

import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CompleteableCommand;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One try of a {@link RoutedCommand}: the object Lettuce writes and completes. It is not the
 * caller's future: whatever the caller does to its future (cancel, {@code orTimeout}, {@code
 * completeExceptionally}) never reaches Lettuce as a try's end, so it can never make the driver
 * send the command again.
 *
 * <p>Lettuce signals a try's end in several ways: {@link #complete()} when the reply was read (an
 * error reply included), {@link #completeExceptionally} for timeouts and broken connections, and
 * {@link #cancel()} when the connection drops commands. The first signal wins; later ones (a reply
 * that arrives after its timeout, say) are ignored. The try then tells its command, which decides
 * (through the {@link Dispatcher}) whether another try follows.
 *
 * <p>A try also knows whether its bytes were ever produced for the socket ({@link #encode} ran): a
 * failure of a try that was never encoded and did not time out proves that the server never saw it.
 * Once its command has ended (answered, failed, or given up by the caller), {@link #isDone()} is
 * true, so a try still queued in Lettuce is not written.
 *
 * <p>Threading: written by the thread that dispatches it, encoded and completed on a Netty event
 * loop, timed out on Lettuce's timer; every transition is a compare-and-set or a release store.
 */
final class CommandTry<K, V, T> extends Command<K, V, T>
    implements CompleteableCommand<T>, HasDeadline {

  private static final VarHandle ENDED;
  private static final VarHandle ENCODED;
  private static final VarHandle ON_END;
  private static final VarHandle WRITTEN_UNTIMED;
  private static final BiConsumer<Object, Throwable> ENDED_MARK = (value, error) -> {};

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      ENDED = lookup.findVarHandle(CommandTry.class, "ended", int.class);
      ENCODED = lookup.findVarHandle(CommandTry.class, "encoded", boolean.class);
      ON_END = lookup.findVarHandle(CommandTry.class, "onEnd", Object.class);
      WRITTEN_UNTIMED = lookup.findVarHandle(CommandTry.class, "writtenUntimed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final RoutedCommand<K, V, T> command;
  private final int number;

  @SuppressWarnings("unused") // through ENDED
  private volatile int ended;

  @SuppressWarnings("unused") // through ENCODED
  private boolean encoded;

  /** Set when Lettuce took the try for writing without a timer: its caller times it out. */
  @SuppressWarnings("unused") // through WRITTEN_UNTIMED
  private boolean writtenUntimed;

  /** What runs when the try ends (null, an action, or {@link #ENDED_MARK} once it ended). */
  @SuppressWarnings("unused") // through ON_END
  private volatile Object onEnd;

  CommandTry(
      RoutedCommand<K, V, T> command,
      int number,
      ProtocolKeyword type,
      CommandOutput<K, V, T> output,
      CommandArgs<K, V> args) {
    super(type, output, args);
    this.command = command;
    this.number = number;
  }

  /** The try's number, 1 for the first. */
  int number() {
    return number;
  }

  /** Whether this try already ended (answered or failed). */
  boolean tryEnded() {
    return ended != 0;
  }

  /**
   * Whether the try's bytes were produced for the socket: after a failure, false proves that the
   * server never saw this try, unless the failure was a timeout (a write may still be on its way).
   */
  boolean wasEncoded() {
    return (boolean) ENCODED.getAcquire(this);
  }

  private boolean end() {
    return ENDED.compareAndSet(this, 0, 1);
  }

  /** Ends the try as failed when nothing else ended it first; for failures outside Lettuce. */
  void failTry(Throwable error) {
    if (end()) {
      super.completeExceptionally(error);
      notifyEnd(null, error);
      command.tryFailed(this, error);
    }
  }

  @Override
  public void encode(ByteBuf buffer) {
    ENCODED.setRelease(this, true);
    super.encode(buffer);
  }

  /** A queued try is not written once its command ended: Lettuce skips commands that are done. */
  @Override
  public boolean isDone() {
    return super.isDone() || command.isDone();
  }

  @Override
  public void complete() {
    if (!end()) {
      return;
    }
    super.complete();
    CommandOutput<K, V, T> output = getOutput();
    if (output != null && output.hasError()) {
      Throwable error = ExceptionFactory.createExecutionException(output.getError());
      notifyEnd(null, error);
      command.tryFailed(this, error);
    } else {
      T value = output == null ? null : output.get();
      notifyEnd(value, null);
      command.tryAnswered(this, value);
    }
  }

  @Override
  public boolean completeExceptionally(Throwable error) {
    if (!end()) {
      return false;
    }
    super.completeExceptionally(error);
    notifyEnd(null, error);
    command.tryFailed(this, error);
    return true;
  }

  /** Lettuce dropped the try (e.g. its connection was reset): its fate is unknown. */
  @Override
  public void cancel() {
    if (end()) {
      super.cancel();
      io.lettuce.core.RedisException error =
          new io.lettuce.core.RedisException("the command was dropped by its connection");
      notifyEnd(null, error);
      command.tryFailed(this, error);
    }
  }

  @Override
  public long deadlineNanos() {
    return command.deadlineNanos();
  }

  /**
   * True for a try of a command whose blocked caller watches the deadline; Lettuce then arms no
   * timer, and the try remembers it so that {@link #expireWatched} ends it where the timer would
   * have.
   */
  @Override
  public boolean deadlineWatchedByCaller() {
    if (!command.callerWatchesDeadline()) {
      return false;
    }
    WRITTEN_UNTIMED.setRelease(this, true);
    return true;
  }

  /**
   * Ends the try as timed out, as Lettuce's timer would have, when it was taken for writing without
   * one and has not ended; a try not yet handed to Lettuce (waiting for a first connection, held,
   * backing off) is left to its own bounded wait. Returns whether it ended the try.
   */
  boolean expireWatched() {
    if (!(boolean) WRITTEN_UNTIMED.getAcquire(this) || tryEnded()) {
      return false;
    }
    return completeExceptionally(
        ExceptionFactory.createTimeoutException(
            getType().toString(),
            java.time.Duration.ofNanos(command.deadlineNanos() - command.startNanos())));
  }

  @Override
  public void onComplete(Consumer<? super T> action) {
    onComplete((value, error) -> action.accept(value));
  }

  /**
   * Registers what runs when the try ends (Lettuce registers one per write: cancelling its
   * timeout). Lock-free: a compare-and-set on one field; a second action is chained to the first.
   */
  @Override
  @SuppressWarnings("unchecked")
  public void onComplete(BiConsumer<? super T, Throwable> action) {
    while (true) {
      Object current = ON_END.getAcquire(this);
      if (current == ENDED_MARK) {
        action.accept(null, null);
        return;
      }
      Object next =
          current == null
              ? action
              : ((BiConsumer<T, Throwable>) current).andThen((BiConsumer<T, Throwable>) action);
      if (ON_END.compareAndSet(this, current, next)) {
        return;
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void notifyEnd(T value, Throwable error) {
    Object current = ON_END.getAndSet(this, ENDED_MARK);
    if (current != null && current != ENDED_MARK) {
      ((BiConsumer<T, Throwable>) current).accept(value, error);
    }
  }

  @Override
  public String toString() {
    return "CommandTry[" + getType() + " #" + number + ", ended=" + tryEnded() + "]";
  }
}
