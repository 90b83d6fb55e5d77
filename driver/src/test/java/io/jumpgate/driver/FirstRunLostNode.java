package io.jumpgate.driver;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A RESP node for unit tests on which every command's first run has an unknown outcome: the node
 * reads the command, counts it, and closes the connection without answering (the driver sees a
 * connection lost after the write). Any later run of the same command (a retry) is answered with
 * {@code -ERR second run}, which ends it. {@link #forget()} starts the count again.
 *
 * <p>One thread accepts, one thread serves each connection; {@link #close()} stops them all.
 */
final class FirstRunLostNode implements AutoCloseable {

  static final String SECOND_RUN_ERROR = "ERR second run";

  private final ServerSocket server;
  private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  FirstRunLostNode() {
    try {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread acceptor = new Thread(this::accept, "first-run-lost-node-" + port());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** How many times a command of this name reached the node since the last {@link #forget()}. */
  int runs(String command) {
    AtomicInteger count = runs.get(command);
    return count == null ? 0 : count.get();
  }

  /** Forgets every command seen: the next run of each is a first run again. */
  void forget() {
    runs.clear();
  }

  private void accept() {
    while (!closed) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        return;
      }
      connections.add(socket);
      Thread serving = new Thread(() -> serve(socket), "first-run-lost-node-connection");
      serving.setDaemon(true);
      serving.start();
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      while (true) {
        String command = readCommandName(in);
        int run = runs.computeIfAbsent(command, name -> new AtomicInteger()).incrementAndGet();
        if (run == 1) {
          return; // closes the connection: the first run's outcome is unknown to the client
        }
        out.write(("-" + SECOND_RUN_ERROR + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    } catch (IOException e) {
      // the client went away, or the node was closed
    } finally {
      connections.remove(socket);
    }
  }

  /** Reads one command (a RESP array of bulk strings) and returns its name in upper case. */
  private static String readCommandName(InputStream in) throws IOException {
    expect(in, '*');
    int items = Integer.parseInt(readLine(in));
    String name = null;
    for (int item = 0; item < items; item++) {
      expect(in, '$');
      int length = Integer.parseInt(readLine(in));
      byte[] bytes = in.readNBytes(length + 2);
      if (bytes.length < length + 2) {
        throw new EOFException();
      }
      if (item == 0) {
        name = new String(bytes, 0, length, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
      }
    }
    return name;
  }

  private static void expect(InputStream in, char marker) throws IOException {
    int read = in.read();
    if (read < 0) {
      throw new EOFException();
    }
    if (read != marker) {
      throw new IOException("expected '" + marker + "', got '" + (char) read + "'");
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int read;
    while ((read = in.read()) != '\r') {
      if (read < 0) {
        throw new EOFException();
      }
      line.append((char) read);
    }
    in.read(); // '\n'
    return line.toString();
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket socket : connections) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
