package io.jumpgate.driver.internal;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A RESP server on a free loopback port for unit tests of node connections: it records every
 * command each connection sends and answers as the test says, per connection (by the order it was
 * accepted): {@code +OK} to everything, nothing at all, or a hang-up after the first command. Its
 * threads are daemons and end on {@link #close()}.
 */
final class FakeRedisServer implements AutoCloseable {

  /** How a connection answers. */
  enum Reply {
    OK,
    SILENT,
    HANG_UP_AFTER_FIRST_COMMAND
  }

  private final ServerSocket server;
  private final IntFunction<Reply> replies;
  private final List<List<List<String>>> received = new ArrayList<>();
  private final List<Socket> sockets = new ArrayList<>();

  FakeRedisServer(IntFunction<Reply> replies) throws IOException {
    this.replies = replies;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "fake-redis-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** Stops accepting: later connects are refused. */
  void stopAccepting() throws IOException {
    server.close();
  }

  /** Connections accepted so far. */
  synchronized int connections() {
    return received.size();
  }

  /** The commands connection {@code index} sent so far, each as its words. */
  synchronized List<List<String>> commands(int index) {
    return List.copyOf(received.get(index));
  }

  /** Waits, at most {@code wait}, until {@code count} connections were accepted. */
  synchronized void awaitConnections(int count, Duration wait) throws InterruptedException {
    long end = System.nanoTime() + wait.toNanos();
    while (received.size() < count) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "the fake server accepted "
                + received.size()
                + " connection(s) within "
                + wait
                + ", expected "
                + count);
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      int index;
      synchronized (this) {
        index = received.size();
        received.add(new ArrayList<>());
        sockets.add(socket);
        notifyAll();
      }
      Thread reader = new Thread(() -> serve(socket, index), "fake-redis-" + index);
      reader.setDaemon(true);
      reader.start();
    }
  }

  private void serve(Socket socket, int index) {
    Reply reply = replies.apply(index);
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      while (true) {
        List<String> command = readCommand(in);
        if (command == null) {
          return;
        }
        synchronized (this) {
          received.get(index).add(command);
          notifyAll();
        }
        if (reply == Reply.HANG_UP_AFTER_FIRST_COMMAND) {
          return;
        }
        if (reply == Reply.OK) {
          out.write("+OK\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
      }
    } catch (IOException e) {
      // the client or close() ended the connection
    }
  }

  /** One RESP array of bulk strings, or null at the end of the stream. */
  private static List<String> readCommand(InputStream in) throws IOException {
    String header = readLine(in);
    if (header == null) {
      return null;
    }
    if (!header.startsWith("*")) {
      throw new IOException("not a RESP array: " + header);
    }
    int words = Integer.parseInt(header.substring(1));
    List<String> command = new ArrayList<>(words);
    for (int word = 0; word < words; word++) {
      String length = readLine(in);
      if (length == null || !length.startsWith("$")) {
        throw new IOException("not a bulk string: " + length);
      }
      byte[] bytes = in.readNBytes(Integer.parseInt(length.substring(1)) + 2);
      command.add(new String(bytes, 0, bytes.length - 2, StandardCharsets.UTF_8));
    }
    return command;
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int previous = -1;
    while (true) {
      int next = in.read();
      if (next < 0) {
        return null;
      }
      if (previous == '\r' && next == '\n') {
        line.setLength(line.length() - 1);
        return line.toString();
      }
      line.append((char) next);
      previous = next;
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (this) {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }
}
