package io.jumpgate.driver;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * A scripted RESP server on 127.0.0.1 for tests (the one fake Redis of the driver's unit tests and
 * of the integration tests, which get it from the driver's test-jar): reads commands (RESP arrays
 * of bulk strings) and does what the test scripted for each command name: answer with any RESP text
 * (a normal reply, a short array, an error), answer once a latch is released, answer nothing, or
 * close the connection. A command with no script of its own gets the connection's fallback ({@link
 * #otherwise}); by default {@code -ERR unscripted command}.
 *
 * <p>It records every command of every connection, by the order the connections were accepted
 * ({@link #commands(int)}, {@link #commands()}), and queues each for {@link #awaitCommand}, so a
 * test can wait (bounded) until a command reached the server.
 *
 * <p>One accept thread and one thread per connection, all daemons; {@link #close()} closes the
 * sockets and joins the threads (bounded). Thread-safe: scripts may be changed while connections
 * are open.
 */
public final class ScriptedRespServer implements AutoCloseable {

  /** How long a held reply waits for its latch before giving up (closing the connection). */
  private static final Duration HOLD_LIMIT = Duration.ofSeconds(20);

  /** What the server does with one command. */
  public interface Reply {

    /** Answers this RESP text as it is (e.g. {@code "+OK\r\n"}, {@code "*1\r\n$1\r\nx\r\n"}). */
    static Reply with(String resp) {
      return (arguments, out, socket) -> {
        out.write(resp.getBytes(StandardCharsets.UTF_8));
        out.flush();
      };
    }

    /** Answers an error, e.g. {@code error("READONLY You can't write against a replica")}. */
    static Reply error(String message) {
      return with("-" + message + "\r\n");
    }

    /** Answers a nil bulk string for each key (MGET of keys that do not exist). */
    static Reply nilPerKey() {
      return (arguments, out, socket) ->
          with("*" + (arguments.size() - 1) + "\r\n" + "$-1\r\n".repeat(arguments.size() - 1))
              .act(arguments, out, socket);
    }

    /** Reads the command and answers nothing: the client waits until its deadline. */
    static Reply none() {
      return (arguments, out, socket) -> {};
    }

    /** Closes the connection after reading the command: the client lost it after the write. */
    static Reply closeConnection() {
      return (arguments, out, socket) -> socket.close();
    }

    /** Does this once {@code release} is counted down (at most {@link #HOLD_LIMIT} later). */
    default Reply after(CountDownLatch release) {
      return (arguments, out, socket) -> {
        try {
          if (!release.await(HOLD_LIMIT.toNanos(), TimeUnit.NANOSECONDS)) {
            socket.close();
            return;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          socket.close();
          return;
        }
        act(arguments, out, socket);
      };
    }

    void act(List<String> arguments, OutputStream out, Socket socket) throws IOException;
  }

  private final ServerSocket server;
  private final Map<String, Reply> script = new ConcurrentHashMap<>();
  private volatile IntFunction<Reply> fallback =
      connection ->
          (arguments, out, socket) ->
              Reply.error("ERR unscripted command '" + arguments.get(0) + "'")
                  .act(arguments, out, socket);
  // Guarded by this: the commands of each connection, by the order it was accepted.
  private final List<List<List<String>>> commandsByConnection = new ArrayList<>();
  private final BlockingQueue<List<String>> received = new LinkedBlockingQueue<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  private ScriptedRespServer(ServerSocket server) {
    this.server = server;
  }

  /** Starts a server on a free port of 127.0.0.1. */
  public static ScriptedRespServer start() throws IOException {
    ScriptedRespServer started =
        new ScriptedRespServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    started.spawn("resp-accept-" + started.port(), started::acceptLoop);
    return started;
  }

  public int port() {
    return server.getLocalPort();
  }

  /** From now on, the server does {@code reply} with every {@code command} (case-insensitive). */
  public ScriptedRespServer on(String command, Reply reply) {
    script.put(command.toUpperCase(Locale.ROOT), reply);
    return this;
  }

  /** Same, with a reply chosen from the command's arguments (name first). */
  public ScriptedRespServer on(String command, Function<List<String>, Reply> reply) {
    return on(
        command, (arguments, out, socket) -> reply.apply(arguments).act(arguments, out, socket));
  }

  /** From now on, every command without a script of its own gets {@code reply}. */
  public ScriptedRespServer otherwise(Reply reply) {
    return otherwise(connection -> reply);
  }

  /**
   * From now on, a command without a script of its own gets the reply chosen by the index of its
   * connection (0 for the first accepted), e.g. a first connection that hangs up and a second that
   * answers.
   */
  public ScriptedRespServer otherwise(IntFunction<Reply> byConnection) {
    this.fallback = byConnection;
    return this;
  }

  /**
   * Waits until the server received a command of this name and returns its arguments (name first);
   * fails when none came within {@code timeout}. Commands of other names are skipped.
   */
  public List<String> awaitCommand(String command, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<String> next = received.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (next == null) {
        throw new AssertionError(
            "the server on port " + port() + " received no " + command + " within " + timeout);
      }
      if (next.get(0).equalsIgnoreCase(command)) {
        return next;
      }
    }
  }

  /** The names of the commands received and not yet awaited. */
  public List<String> receivedCommands() {
    List<String> names = new ArrayList<>();
    for (List<String> command : received) {
      names.add(command.get(0));
    }
    return names;
  }

  /** Connections accepted so far. */
  public synchronized int connections() {
    return commandsByConnection.size();
  }

  /** The commands connection {@code index} sent so far (0 for the first accepted), as words. */
  public synchronized List<List<String>> commands(int index) {
    return List.copyOf(commandsByConnection.get(index));
  }

  /** The commands every connection sent so far, as words, connection by connection. */
  public synchronized List<List<String>> commands() {
    List<List<String>> all = new ArrayList<>();
    commandsByConnection.forEach(all::addAll);
    return all;
  }

  /** Waits, at most {@code wait}, until {@code count} connections were accepted. */
  public synchronized void awaitConnections(int count, Duration wait) throws InterruptedException {
    long end = System.nanoTime() + wait.toNanos();
    while (commandsByConnection.size() < count) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "the server on port "
                + port()
                + " accepted "
                + commandsByConnection.size()
                + " connection(s) within "
                + wait
                + ", expected "
                + count);
      }
      wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
    }
  }

  /** Stops accepting: later connects are refused; open connections stay. */
  public void stopAccepting() throws IOException {
    server.close();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      sockets.add(socket);
      int index;
      synchronized (this) {
        index = commandsByConnection.size();
        commandsByConnection.add(new ArrayList<>());
        notifyAll();
      }
      spawn("resp-connection-" + port() + "-" + index, () -> serve(socket, index));
    }
  }

  private void serve(Socket socket, int index) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      while (!closed && !socket.isClosed()) {
        List<String> arguments = readCommand(in);
        if (arguments == null) {
          return;
        }
        synchronized (this) {
          commandsByConnection.get(index).add(arguments);
        }
        received.add(arguments);
        Reply reply = script.get(arguments.get(0).toUpperCase(Locale.ROOT));
        if (reply == null) {
          reply = fallback.apply(index);
        }
        reply.act(arguments, out, socket);
      }
    } catch (SocketException e) {
      // the client or the test closed the connection
    } catch (IOException e) {
      if (!closed && !socket.isClosed()) {
        throw new IllegalStateException("the scripted server failed", e);
      }
    }
  }

  /** One RESP array of bulk strings, or null at the end of the stream. */
  private static List<String> readCommand(InputStream in) throws IOException {
    String header = readLine(in);
    if (header == null) {
      return null;
    }
    if (header.charAt(0) != '*') {
      throw new IOException("expected a RESP array, got '" + header + "'");
    }
    int count = Integer.parseInt(header.substring(1));
    List<String> arguments = new ArrayList<>(count);
    for (int index = 0; index < count; index++) {
      String length = readLine(in);
      if (length == null || length.charAt(0) != '$') {
        throw new IOException("expected a bulk string, got '" + length + "'");
      }
      byte[] bytes = in.readNBytes(Integer.parseInt(length.substring(1)));
      if (readLine(in) == null) {
        throw new IOException("the stream ended inside a bulk string");
      }
      arguments.add(new String(bytes, StandardCharsets.UTF_8));
    }
    return arguments;
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

  private void spawn(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    threads.add(thread);
    thread.start();
  }

  /**
   * Closes the listening socket and every connection, and joins every thread (bounded: a thread
   * still alive after 5 s is a daemon and does not keep the JVM).
   */
  @Override
  public void close() throws IOException, InterruptedException {
    closed = true;
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (Thread thread : threads) {
      thread.interrupt(); // a thread holding a reply for a latch
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
    }
  }
}
