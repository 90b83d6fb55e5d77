package io.jumpgate.testkit.internal;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * One-shot RESP calls over a plain socket, for readiness probes: no event loop, bounded by a
 * timeout. Replies are returned as text: a simple string or a bulk string as is, an error as {@code
 * -ERR ...}, an integer as its digits, an array as {@code [n]}. Stateless, thread-safe.
 */
public final class Resp {

  private Resp() {}

  /**
   * Connects to {@code 127.0.0.1:port}, authenticates when {@code username} is not null, sends each
   * command and returns the reply of the last one.
   */
  public static String call(
      int port, Duration timeout, String username, String password, List<List<String>> commands)
      throws IOException {
    try (Socket socket = new Socket()) {
      int millis = (int) Math.max(1, timeout.toMillis());
      socket.connect(new InetSocketAddress("127.0.0.1", port), millis);
      socket.setSoTimeout(millis);
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      String reply = "";
      if (username != null) {
        write(out, List.of("AUTH", username, password));
        reply = read(in);
        if (reply.startsWith("-")) {
          return reply;
        }
      }
      for (List<String> command : commands) {
        write(out, command);
        reply = read(in);
      }
      return reply;
    }
  }

  private static void write(OutputStream out, List<String> command) throws IOException {
    StringBuilder text = new StringBuilder("*").append(command.size()).append("\r\n");
    for (String part : command) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      text.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
    }
    out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static String read(InputStream in) throws IOException {
    String line = line(in);
    if (line.isEmpty()) {
      throw new IOException("empty reply");
    }
    switch (line.charAt(0)) {
      case '+', ':' -> {
        return line.substring(1);
      }
      case '-' -> {
        return line;
      }
      case '*' -> {
        return "[" + line.substring(1) + "]";
      }
      case '$' -> {
        int length = Integer.parseInt(line.substring(1));
        if (length < 0) {
          return "";
        }
        byte[] bytes = in.readNBytes(length + 2);
        if (bytes.length != length + 2) {
          throw new IOException("connection closed inside a bulk reply");
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      }
      default -> throw new IOException("not a RESP reply: " + line);
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int next = in.read();
      if (next < 0) {
        throw new IOException("connection closed before the end of a reply");
      }
      if (previous == '\r' && next == '\n') {
        byte[] all = bytes.toByteArray();
        return new String(all, 0, all.length - 1, StandardCharsets.UTF_8);
      }
      bytes.write(next);
      previous = next;
    }
  }
}
