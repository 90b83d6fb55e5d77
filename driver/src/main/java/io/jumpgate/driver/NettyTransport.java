package io.jumpgate.driver;

import io.lettuce.core.resource.Transports;
import io.netty.channel.Channel;

/**
 * Which Netty transport Lettuce uses for TCP connections in this JVM: {@code epoll} or {@code
 * io_uring} when the native library is on the class path and loads (Lettuce prefers epoll when both
 * are there; the system properties {@code io.lettuce.core.epoll=false} and {@code
 * io.lettuce.core.iouring=false} turn one off), else {@code nio}. Lettuce decides once per JVM.
 * Thread-safe.
 */
public final class NettyTransport {

  private NettyTransport() {}

  /**
   * The transport of the TCP connections Lettuce opens: {@code epoll}, {@code io_uring} or more.
   */
  public static String current() {
    return name(Transports.socketChannelClass());
  }

  /** The transport a socket channel class belongs to, from its package. */
  public static String name(Class<? extends Channel> channelClass) {
    String packageName = channelClass.getPackageName();
    if (packageName.endsWith(".epoll")) {
      return "epoll";
    }
    if (packageName.endsWith(".uring")) {
      return "io_uring";
    }
    if (packageName.endsWith(".kqueue")) {
      return "kqueue";
    }
    if (packageName.endsWith(".nio")) {
      return "nio";
    }
    return channelClass.getName();
  }
}
