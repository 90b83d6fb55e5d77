package io.jumpgate.cli.demo;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * RESP2 commands to a redis-server on 127.0.0.1, on a connection of their own: what the demo needs
 * to check and steer its servers (PING, INFO, ROLE, DBSIZE, FAILOVER, and the key check's KEYS and
 * MGET) without going through the driver. Replies: simple string and bulk string as {@link String}
 * (bulk may be null), integer as {@link Long}, array as {@link List}, error as {@link Error}.
 *
 * <p>Stateless and thread-safe.
 */
final class Resp {

  /** An error reply, without its leading {@code -}. */
  record Error(String message) {
    @Override
    public String toString() {
      return "-" + message;
    }
  }

  private Resp() {}

  /**
   * Sends {@code command} to 127.0.0.1:{@code port} and returns the reply.
   *
   * @param timeout for connecting and for the reply
   * @throws IOException if the server cannot be reached or does not answer in time
   */
  static Object call(int port, Duration timeout, String... command) throws IOException {
    int millis = (int) timeout.toMillis();
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(millis);
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), millis);
      OutputStream out = socket.getOutputStream();
      out.write(encode(command));
      out.flush();
      return read(new BufferedInputStream(socket.getInputStream()));
    }
  }

  /**
   * Sends {@code commands} to 127.0.0.1:{@code port} on one connection, all at once (pipelined),
   * and returns their replies in order.
   *
   * @param timeout for connecting and for each reply
   * @throws IOException if the server cannot be reached or does not answer in time
   */
  static List<Object> callAll(int port, Duration timeout, List<String[]> commands)
      throws IOException {
    int millis = (int) timeout.toMillis();
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(millis);
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), millis);
      OutputStream out = new BufferedOutputStream(socket.getOutputStream());
      for (String[] command : commands) {
        out.write(encode(command));
      }
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      List<Object> replies = new ArrayList<>(commands.size());
      for (int index = 0; index < commands.size(); index++) {
        replies.add(read(in));
      }
      return replies;
    }
  }

  static byte[] encode(String... command) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    buffer.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.UTF_8));
    for (String part : command) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      buffer.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
      buffer.writeBytes(bytes);
      buffer.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }
    return buffer.toByteArray();
  }

  static Object read(InputStream in) throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException("the server closed the connection");
    }
    String line = readLine(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        return new Error(line);
      case ':':
        return Long.parseLong(line);
      case '$':
        {
          int length = Integer.parseInt(line);
          if (length < 0) {
            return null;
          }
          byte[] bytes = in.readNBytes(length + 2);
          if (bytes.length < length + 2) {
            throw new EOFException("the server closed the connection inside a reply");
          }
          return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
      case '*':
        {
          int count = Integer.parseInt(line);
          if (count < 0) {
            return null;
          }
          List<Object> items = new ArrayList<>(count);
          for (int index = 0; index < count; index++) {
            items.add(read(in));
          }
          return items;
        }
      default:
        throw new IOException("not a RESP reply: '" + (char) type + line + "'");
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int next = in.read();
      if (next < 0) {
        throw new EOFException("the server closed the connection inside a reply");
      }
      if (previous == '\r' && next == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
      }
      line.write(next);
      previous = next;
    }
  }
}
