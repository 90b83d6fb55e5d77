package io.jumpgate.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny in-process RESP2 server for the exec tests: strings (GET, SET, MGET, MSET, DEL, EXISTS),
 * lists (LPUSH, LRANGE), PING, DBSIZE, KEYS *, INFO, AUTH with an optional password; anything else
 * is {@code -ERR unknown command}. A list key read with GET answers WRONGTYPE. Every command it
 * gets is recorded ({@link #commands()}), so a test can see which node a command reached.
 *
 * <p>Thread-safe: one thread per connection, a concurrent store.
 */
final class ExecTestRedis implements AutoCloseable {

  private final ServerSocket server;
  private final String password;
  private final Map<String, Object> store = new ConcurrentHashMap<>();
  private final List<String> commands = new CopyOnWriteArrayList<>();
  private final List<Socket> connections = new CopyOnWriteArrayList<>();

  private ExecTestRedis(String password) throws IOException {
    this.password = password;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "exec-test-redis-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A server without a password. */
  static ExecTestRedis start() throws IOException {
    return new ExecTestRedis(null);
  }

  /** A server whose default user has this password. */
  static ExecTestRedis withPassword(String password) throws IOException {
    return new ExecTestRedis(password);
  }

  int port() {
    return server.getLocalPort();
  }

  /** {@code 127.0.0.1:<port>} */
  String address() {
    return "127.0.0.1:" + port();
  }

  /** The commands received, each as its words joined by spaces (AUTH and PING included). */
  List<String> commands() {
    return List.copyOf(commands);
  }

  /** The keys this server holds. */
  java.util.Set<String> keys() {
    return java.util.Set.copyOf(store.keySet());
  }

  /** A string value this server holds, as bytes, or null. */
  byte[] value(String key) {
    return store.get(key) instanceof byte[] bytes ? bytes.clone() : null;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.add(socket);
        Thread thread = new Thread(() -> serve(socket), "exec-test-redis-connection");
        thread.setDaemon(true);
        thread.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = new BufferedOutputStream(socket.getOutputStream());
      boolean authenticated = password == null;
      while (true) {
        List<byte[]> command = readCommand(in);
        String name =
            new String(command.get(0), StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT);
        commands.add(describe(command));
        if (name.equals("AUTH")) {
          String given = new String(command.get(command.size() - 1), StandardCharsets.UTF_8);
          authenticated = given.equals(password);
          out.write(
              (authenticated
                      ? "+OK\r\n"
                      : "-WRONGPASS invalid username-password pair or user is disabled.\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
        } else if (!authenticated) {
          out.write("-NOAUTH Authentication required.\r\n".getBytes(StandardCharsets.US_ASCII));
        } else {
          out.write(answer(name, command.subList(1, command.size())));
        }
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  private static String describe(List<byte[]> command) {
    List<String> words = new ArrayList<>();
    for (byte[] word : command) {
      words.add(new String(word, StandardCharsets.UTF_8));
    }
    return String.join(" ", words);
  }

  private byte[] answer(String name, List<byte[]> arguments) {
    return switch (name) {
      case "PING" -> status("PONG");
      case "GET" -> {
        Object value = store.get(key(arguments, 0));
        if (value instanceof List<?>) {
          yield error("WRONGTYPE Operation against a key holding the wrong kind of value");
        }
        yield bulk((byte[]) value);
      }
      case "SET" -> {
        store.put(key(arguments, 0), arguments.get(1));
        yield status("OK");
      }
      case "MSET" -> {
        for (int index = 0; index < arguments.size(); index += 2) {
          store.put(key(arguments, index), arguments.get(index + 1));
        }
        yield status("OK");
      }
      case "MGET" -> {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        reply.writeBytes(("*" + arguments.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (int index = 0; index < arguments.size(); index++) {
          Object value = store.get(key(arguments, index));
          reply.writeBytes(bulk(value instanceof byte[] bytes ? bytes : null));
        }
        yield reply.toByteArray();
      }
      case "DEL", "EXISTS" -> {
        long count = 0;
        for (int index = 0; index < arguments.size(); index++) {
          String key = key(arguments, index);
          if (name.equals("DEL") ? store.remove(key) != null : store.containsKey(key)) {
            count++;
          }
        }
        yield integer(count);
      }
      case "LPUSH" -> {
        @SuppressWarnings("unchecked")
        List<byte[]> list =
            (List<byte[]>)
                store.computeIfAbsent(key(arguments, 0), key -> new CopyOnWriteArrayList<>());
        for (int index = 1; index < arguments.size(); index++) {
          list.add(0, arguments.get(index));
        }
        yield integer(list.size());
      }
      case "LRANGE" -> {
        Object value = store.get(key(arguments, 0));
        List<?> list = value instanceof List<?> found ? found : List.of();
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        reply.writeBytes(("*" + list.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object element : list) {
          reply.writeBytes(bulk((byte[]) element));
        }
        yield reply.toByteArray();
      }
      case "DBSIZE" -> integer(store.size());
      case "KEYS" -> {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        List<String> keys = new ArrayList<>(store.keySet());
        keys.sort(null);
        reply.writeBytes(("*" + keys.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String key : keys) {
          reply.writeBytes(bulk(key.getBytes(StandardCharsets.UTF_8)));
        }
        yield reply.toByteArray();
      }
      case "INFO" ->
          bulk(("# Server\r\ntcp_port:" + port() + "\r\n").getBytes(StandardCharsets.UTF_8));
      default -> error("ERR unknown command '" + name.toLowerCase(Locale.ROOT) + "'");
    };
  }

  /** Keys are kept as the hex of their bytes when not UTF-8 safe; tests use text keys. */
  private static String key(List<byte[]> arguments, int index) {
    byte[] key = arguments.get(index);
    String text = new String(key, StandardCharsets.UTF_8);
    return java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), key)
        ? text
        : "hex:" + HexFormat.of().formatHex(key);
  }

  private static byte[] status(String text) {
    return ("+" + text + "\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] error(String text) {
    return ("-" + text + "\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] integer(long value) {
    return (":" + value + "\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] bulk(byte[] value) {
    if (value == null) {
      return "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    }
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    reply.writeBytes(("$" + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    reply.writeBytes(value);
    reply.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    return reply.toByteArray();
  }

  /** One command: an array of bulk strings. */
  private static List<byte[]> readCommand(InputStream in) throws IOException {
    String header = readLine(in);
    if (!header.startsWith("*")) {
      throw new IOException("not a command: " + header);
    }
    int count = Integer.parseInt(header.substring(1));
    List<byte[]> words = new ArrayList<>(count);
    for (int index = 0; index < count; index++) {
      String length = readLine(in);
      byte[] word = in.readNBytes(Integer.parseInt(length.substring(1)));
      readLine(in);
      words.add(word);
    }
    return words;
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      int b = in.read();
      if (b == -1) {
        throw new EOFException();
      }
      if (b == '\r') {
        in.read();
        return line.toString();
      }
      line.append((char) b);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : connections) {
      socket.close();
    }
  }
}
