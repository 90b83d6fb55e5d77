package io.jumpgate.testkit.internal;

import io.jumpgate.testkit.LocalClusterException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports of 127.0.0.1 that were free a moment ago, never the same one twice in this JVM (so that two
 * clusters started side by side do not pick the same port before either binds it). Thread-safe.
 */
public final class FreePorts {

  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** A free loopback port not handed out before. */
  public static int next() {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (HANDED_OUT.add(port)) {
          return port;
        }
      } catch (IOException e) {
        throw new LocalClusterException("cannot bind a port on 127.0.0.1: " + e.getMessage(), e);
      }
    }
    throw new LocalClusterException("found no free port on 127.0.0.1 in 100 tries");
  }
}
