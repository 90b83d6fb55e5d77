package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.NettyTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteCoalescingHandler} on an {@link EmbeddedChannel}, whose event loop runs queued tasks
 * only when the test says so ({@code runPendingTasks}): that makes "one event-loop turn" exact. A
 * sink between the channel's head and the handler stands for the socket: it keeps what is written
 * and counts the flushes, and passes nothing on (the embedded channel's own unsafe runs the pending
 * tasks after each write, which would end the turn early).
 */
class WriteCoalescingHandlerTest {

  /** The socket: keeps the written messages and counts the flushes. */
  private static final class Socket extends ChannelOutboundHandlerAdapter {
    final Queue<ByteBuf> written = new ArrayDeque<>();
    int flushes;

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
      written.add((ByteBuf) message);
      promise.setSuccess();
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
      flushes++;
    }

    void release() {
      written.forEach(ByteBuf::release);
      written.clear();
    }
  }

  private final Socket counter = new Socket();
  private final EmbeddedChannel channel =
      new EmbeddedChannel(counter, new WriteCoalescingHandler());

  private static ByteBuf command(int number) {
    return Unpooled.copiedBuffer("INCR k" + number + "\r\n", StandardCharsets.US_ASCII);
  }

  @Test
  void should_send_the_commands_of_one_turn_in_one_flush() {
    for (int command = 0; command < 100; command++) {
      channel.pipeline().writeAndFlush(command(command));
    }
    assertThat(counter.flushes).as("flushes before the turn's tasks ran").isZero();

    channel.runPendingTasks();

    assertThat(counter.flushes).as("flushes for 100 commands of one turn").isEqualTo(1);
    for (int command = 0; command < 100; command++) {
      ByteBuf written = counter.written.poll();
      assertThat(written).as("command %d written", command).isNotNull();
      assertThat(written.toString(StandardCharsets.US_ASCII))
          .isEqualTo("INCR k" + command + "\r\n");
      written.release();
    }
  }

  @Test
  void should_send_a_lone_command_when_the_turn_runs_its_tasks_without_other_traffic() {
    for (int round = 0; round < 3; round++) {
      channel.pipeline().writeAndFlush(command(round));
      channel.runPendingTasks();
      assertThat(counter.flushes).as("flushes after lone command %d", round).isEqualTo(round + 1);
      ByteBuf written = counter.written.poll();
      assertThat(written).as("lone command %d written", round).isNotNull();
      written.release();
    }
  }

  @Test
  void should_hold_flushes_during_a_read_and_flush_them_when_the_read_completes() {
    channel.pipeline().fireChannelRead(Unpooled.copiedBuffer(":1\r\n", StandardCharsets.US_ASCII));
    channel.pipeline().writeAndFlush(command(1));
    channel.pipeline().writeAndFlush(command(2));
    channel.runPendingTasks();
    assertThat(counter.flushes).as("flushes while a read is in progress").isZero();

    channel.pipeline().fireChannelReadComplete();

    assertThat(counter.flushes).as("flushes once the read completed").isEqualTo(1);
    assertThat(counter.written).hasSize(2);
    channel.runPendingTasks();
    assertThat(counter.flushes).as("flushes after the scheduled task found nothing").isEqualTo(1);
    counter.release();
    channel.releaseInbound();
  }

  @Test
  void should_let_a_flush_through_after_the_most_held_flushes() {
    for (int command = 0; command < WriteCoalescingHandler.MAX_HELD_FLUSHES; command++) {
      channel.pipeline().writeAndFlush(command(command));
    }
    assertThat(counter.flushes).as("flushes without running the turn's tasks").isEqualTo(1);
    channel.runPendingTasks();
    assertThat(counter.flushes).as("nothing left for the scheduled flush").isEqualTo(1);
    counter.release();
  }

  @Test
  void should_flush_what_is_held_before_closing() {
    channel.pipeline().writeAndFlush(command(1));
    channel.close();
    assertThat(counter.flushes).as("flushes before the close").isEqualTo(1);
    counter.release();
  }

  @Test
  void should_flush_at_once_on_a_real_event_loop_when_no_other_task_is_queued() throws Exception {
    MultiThreadIoEventLoopGroup group =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      Socket sink = new Socket();
      NioSocketChannel real = new NioSocketChannel();
      real.pipeline().addLast(sink, new WriteCoalescingHandler());
      group.register(real).sync();
      EventLoop loop = real.eventLoop();

      // One command in flight: nothing else is queued on the loop, so nothing is worth waiting for.
      int flushesInTheWritingTask =
          loop.submit(
                  () -> {
                    real.pipeline().writeAndFlush(command(1));
                    return sink.flushes;
                  })
              .get(10, TimeUnit.SECONDS);
      assertThat(flushesInTheWritingTask).as("a lone command flushed in its own task").isEqualTo(1);

      // Another thread's write queued behind this task: the flush waits for it, then both leave.
      int flushesWithAWriteQueued =
          loop.submit(
                  () -> {
                    loop.execute(() -> real.pipeline().writeAndFlush(command(3)));
                    real.pipeline().writeAndFlush(command(2));
                    return sink.flushes;
                  })
              .get(10, TimeUnit.SECONDS);
      assertThat(flushesWithAWriteQueued).as("flush held while a write is queued").isEqualTo(1);
      int flushesAfterTheTurn = loop.submit(() -> sink.flushes).get(10, TimeUnit.SECONDS);
      assertThat(flushesAfterTheTurn).as("the two queued commands left in one flush").isEqualTo(2);
      assertThat(sink.written).hasSize(3);
      loop.submit(sink::release).get(10, TimeUnit.SECONDS);
    } finally {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    }
  }

  @Test
  void should_name_the_transport_of_a_socket_channel_class() throws Exception {
    // The native transports are runtime-only dependencies of the driver: load them by name.
    assertThat(NettyTransport.name(NioSocketChannel.class)).isEqualTo("nio");
    assertThat(NettyTransport.name(channelClass("io.netty.channel.epoll.EpollSocketChannel")))
        .isEqualTo("epoll");
    assertThat(NettyTransport.name(channelClass("io.netty.channel.uring.IoUringSocketChannel")))
        .isEqualTo("io_uring");
  }

  @Test
  void should_say_epoll_when_its_native_library_loads() throws Exception {
    // The driver's tests have the optional linux-x86_64 natives on the class path: on that
    // platform Lettuce picks epoll, and the transport the client logs says so.
    boolean epoll =
        (Boolean)
            Class.forName("io.netty.channel.epoll.Epoll").getMethod("isAvailable").invoke(null);
    assertThat(NettyTransport.current()).isEqualTo(epoll ? "epoll" : "nio");
    if (System.getProperty("os.name").startsWith("Linux")
        && System.getProperty("os.arch").equals("amd64")) {
      assertThat(epoll).as("epoll loads on linux-x86_64").isTrue();
    }
  }

  private static Class<? extends Channel> channelClass(String name) throws Exception {
    return Class.forName(name).asSubclass(Channel.class);
  }
}
