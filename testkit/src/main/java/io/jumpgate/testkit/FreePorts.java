package io.jumpgate.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports of 127.0.0.1 for servers the tests start.
 *
 * <p>Ports are drawn below the kernel's ephemeral range ({@code ip_local_port_range}), so that an
 * outgoing connection cannot take a server's port as its source port between the check and the
 * bind, or while a killed server is down before its restart on the same port. A port is checked by
 * binding it, and never handed out twice by this JVM (two clusters started side by side do not pick
 * the same port). The remaining race (another program binds it first) is the callers': a server
 * that finds its port taken fails with {@link LocalServer.PortTakenException} and {@link
 * LocalServer#startOnFreePorts} starts a fresh one. Thread-safe (synchronized).
 */
public final class FreePorts {
  private static final Set<Integer> HANDED_OUT = new HashSet<>();
  private static final int LOWEST = 20_000;

  private FreePorts() {}

  /** A port of 127.0.0.1 that was free a moment ago and that this JVM has not handed out yet. */
  public static synchronized int next() {
    int high = ephemeralRangeLow() - 1;
    if (high - LOWEST > 1000) {
      for (int attempt = 0; attempt < 200; attempt++) {
        int port = ThreadLocalRandom.current().nextInt(LOWEST, high + 1);
        if (!HANDED_OUT.contains(port) && canBind(port)) {
          HANDED_OUT.add(port);
          return port;
        }
      }
    }
    for (int attempt = 0; attempt < 200; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (HANDED_OUT.add(port)) {
          return port;
        }
      } catch (IOException e) {
        throw new LocalClusterException("cannot bind any port on 127.0.0.1: " + e.getMessage(), e);
      }
    }
    throw new LocalClusterException("found no free port on 127.0.0.1 in 400 tries");
  }

  /** True if nothing listens on (or holds) 127.0.0.1:{@code port} right now. */
  public static boolean canBind(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int ephemeralRangeLow() {
    // a BufferedReader: Files.readString may return a short read of a sysctl file
    try (BufferedReader reader =
        Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
