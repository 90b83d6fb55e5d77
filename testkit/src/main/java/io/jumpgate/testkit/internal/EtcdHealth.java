package io.jumpgate.testkit.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Asks etcd's {@code GET /health} over a plain socket (HTTP/1.0, no client threads). Stateless,
 * thread-safe.
 */
public final class EtcdHealth {

  private EtcdHealth() {}

  /** Whether etcd on {@code 127.0.0.1:port} answers {@code "health":"true"} within the timeout. */
  public static boolean healthy(int port, Duration timeout) {
    try (Socket socket = new Socket()) {
      int millis = (int) Math.max(1, timeout.toMillis());
      socket.connect(new InetSocketAddress("127.0.0.1", port), millis);
      socket.setSoTimeout(millis);
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readNBytes(8192), StandardCharsets.UTF_8);
      return response.startsWith("HTTP/1.")
          && response.contains(" 200 ")
          && response.replace(" ", "").contains("\"health\":\"true\"");
    } catch (IOException e) {
      return false;
    }
  }
}
