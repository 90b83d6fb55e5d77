package io.jumpgate.driver.internal;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;

/**
 * Holds back the flushes of one node connection so that the commands that are ready within one turn
 * of its event loop leave in one socket write, instead of one write (one system call, and one read
 * and one write on the server) per command.
 *
 * <ul>
 *   <li>While a read is being handled ({@code channelRead} up to {@code channelReadComplete}),
 *       flushes are held: the commands that completion callbacks send while the replies are decoded
 *       leave together when the read completes. The driver's tries sent meanwhile to any node
 *       connection, on this event loop or another, are held in the loop's {@link LoopTurn} and
 *       leave then too, one batch per connection.
 *   <li>Otherwise, when the event loop has other tasks queued (the writes of other threads), the
 *       first flush queues one task behind them; further flushes are counted and that task flushes
 *       them all, in the same turn of the event loop. When nothing else is queued, there is nothing
 *       to wait for and the flush goes through at once: a command that is alone (one in flight)
 *       pays no extra task. A command never waits for another command or a timer.
 *   <li>After {@link #MAX_HELD_FLUSHES} held flushes one goes through at once, and held flushes go
 *       through before the channel closes or disconnects, when it stops being writable, and when
 *       the handler is removed.
 * </ul>
 *
 * <p>Nothing is allocated or locked per command: the flush task is one object made with the
 * handler. Not thread-safe: Netty calls it on the channel's event loop only; one instance per
 * channel (not {@code @Sharable}).
 */
final class WriteCoalescingHandler extends ChannelDuplexHandler {

  /** The handler's name in the pipeline. */
  static final String NAME = "jumpgate-write-coalescing";

  /** Held flushes after which one goes through at once. */
  static final int MAX_HELD_FLUSHES = 256;

  private final Runnable scheduledFlush = this::runScheduledFlush;
  private ChannelHandlerContext context;
  private SingleThreadEventExecutor taskQueueOwner;
  private LoopTurn turn;
  private boolean reading;
  private boolean flushScheduled;
  private int heldFlushes;

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.context = ctx;
    EventExecutor loop = ctx.channel().eventLoop();
    // Event loops that are not single-threaded executors (the embedded loop of tests) cannot say
    // whether tasks are queued: with them every first flush is scheduled.
    this.taskQueueOwner = loop instanceof SingleThreadEventExecutor owner ? owner : null;
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (reading) {
      // removed inside a read: the loop's held tries must not wait for another channel's read
      reading = false;
      endTurnRead();
    }
    flushHeld(ctx);
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    if (++heldFlushes >= MAX_HELD_FLUSHES) {
      flushHeld(ctx);
    } else if (!reading && !flushScheduled) {
      if (taskQueueOwner != null && taskQueueOwner.pendingTasks() == 0) {
        flushHeld(ctx);
      } else {
        flushScheduled = true;
        ctx.channel().eventLoop().execute(scheduledFlush);
      }
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object message) {
    reading = true;
    if (turn == null) {
      turn = LoopTurn.current(); // a channel's event loop never changes
    }
    turn.readStarted();
    ctx.fireChannelRead(message);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    reading = false;
    endTurnRead();
    flushHeld(ctx);
    ctx.fireChannelReadComplete();
  }

  /** The tries that callbacks sent during this read go out now, a batch per connection. */
  private void endTurnRead() {
    if (turn != null) {
      turn.readCompleted();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (!ctx.channel().isWritable()) {
      flushHeld(ctx);
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    reading = false;
    endTurnRead();
    flushHeld(ctx);
    ctx.fireExceptionCaught(cause);
  }

  @Override
  public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
    flushHeld(ctx);
    ctx.disconnect(promise);
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    flushHeld(ctx);
    ctx.close(promise);
  }

  private void runScheduledFlush() {
    flushScheduled = false;
    if (reading) {
      // A read began before this task ran: channelReadComplete flushes what is held.
      return;
    }
    flushHeld(context);
  }

  private void flushHeld(ChannelHandlerContext ctx) {
    if (heldFlushes > 0) {
      heldFlushes = 0;
      ctx.flush();
    }
  }
}
