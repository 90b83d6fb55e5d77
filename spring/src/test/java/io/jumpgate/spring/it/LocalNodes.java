package io.jumpgate.spring.it;

import static org.awaitility.Awaitility.await;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyAdmin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One etcd and N redis-server processes on free 127.0.0.1 ports, in a temp dir, with a Jumpgate
 * topology written to etcd by the topology module's own {@link TopologyAdmin}: the nodes are {@code
 * leader-0} .. {@code leader-(N-1)}, no replicas.
 *
 * <p>For the starter's integration test only. The integration-tests module has a complete fixture
 * (etcd clusters, replicas, proxies, logs kept on failure), but it lives in that module's test
 * sources, is not packaged, and that module runs under the rest of Jumpgate's dependency versions,
 * not Spring Boot's. This is the minimum the starter's test needs, written for it.
 *
 * <p>{@link #close()} kills every process (SIGKILL after 10 s of SIGTERM) and deletes the dir; a
 * JVM shutdown hook does the same if the JVM ends first. Use it in try-with-resources.
 */
final class LocalNodes implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final int START_ATTEMPTS = 3;

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final Map<String, Integer> redisPorts = new LinkedHashMap<>();
  private final Map<String, Process> redisProcesses = new LinkedHashMap<>();
  private final Thread shutdownHook = new Thread(this::killAll, "jumpgate-it-cleanup");
  private Process etcd;
  private String etcdEndpoint;

  private LocalNodes(Path dir) {
    this.dir = dir;
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts etcd and {@code leaders} redis-servers, and writes a topology of {@code shards} shards
   * for {@code cluster} in etcd.
   */
  static LocalNodes start(String cluster, int shards, int leaders) throws IOException {
    LocalNodes nodes = new LocalNodes(Files.createTempDirectory("jumpgate-spring-it"));
    try {
      nodes.startEtcd();
      for (int leader = 0; leader < leaders; leader++) {
        nodes.startRedis("leader-" + leader);
      }
      nodes.writeTopology(cluster, shards);
      return nodes;
    } catch (RuntimeException | IOException | Error e) {
      nodes.close();
      throw e;
    }
  }

  /** {@code http://127.0.0.1:<port>} */
  String etcdEndpoint() {
    return etcdEndpoint;
  }

  /** Node id -> port of each redis-server, in start order. */
  Map<String, Integer> redisPorts() {
    return Map.copyOf(redisPorts);
  }

  /** DBSIZE of one node, on a new connection. */
  long dbsize(String nodeId) throws IOException {
    String answer = inline(redisPorts.get(nodeId), "DBSIZE");
    if (!answer.startsWith(":")) {
      throw new IOException("DBSIZE on " + nodeId + " answered " + answer);
    }
    return Long.parseLong(answer.substring(1));
  }

  /**
   * Whether one node holds the key: {@code redis-cli EXISTS <key>} on it, as a person would check
   * (these nodes are no jumpgate-testkit {@code LocalNode}, so redis-cli runs here with the port).
   */
  boolean holds(String nodeId, String key) throws IOException {
    String answer = redisCli(nodeId, "EXISTS", key);
    if (!answer.equals("1") && !answer.equals("0")) {
      throw new IOException("redis-cli EXISTS " + key + " on " + nodeId + " answered " + answer);
    }
    return answer.equals("1");
  }

  /**
   * {@code redis-cli -e --raw} with one command on one node, bounded to 10 s (then killed); its
   * output goes to a file, so a redis-cli that hangs cannot block the test past the bound.
   */
  private String redisCli(String nodeId, String... command) throws IOException {
    List<String> line = new ArrayList<>(List.of("redis-cli", "-e", "--raw", "-h", "127.0.0.1"));
    line.addAll(List.of("-p", Integer.toString(redisPorts.get(nodeId))));
    line.addAll(List.of(command));
    String shown = "redis-cli " + String.join(" ", command) + " on " + nodeId;
    Path output = Files.createTempFile(dir, "redis-cli-", ".out");
    try {
      Process process;
      try {
        process =
            new ProcessBuilder(line)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
      } catch (IOException e) {
        throw new IOException(
            shown
                + " could not run (redis-cli is in the redis-tools package, which redis-server, installed by bin/test, depends on)",
            e);
      }
      process.getOutputStream().close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        throw new IOException(shown + " did not end within 10 s: " + Files.readString(output));
      }
      String printed = Files.readString(output).strip();
      if (process.exitValue() != 0) {
        throw new IOException(shown + " exited with " + process.exitValue() + ": " + printed);
      }
      return printed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(shown + " was interrupted", e);
    } finally {
      Files.deleteIfExists(output);
    }
  }

  /** PTTL of a key on one node (-2: no such key, -1: no expiry), on a new connection. */
  long pttl(String nodeId, String key) throws IOException {
    String answer = inline(redisPorts.get(nodeId), "PTTL " + key);
    if (!answer.startsWith(":")) {
      throw new IOException("PTTL " + key + " on " + nodeId + " answered " + answer);
    }
    return Long.parseLong(answer.substring(1));
  }

  /** How many clients of one node subscribe to the channel (PUBSUB NUMSUB on a new connection). */
  long subscribers(String nodeId, String channel) throws IOException {
    List<String> lines = lines(redisPorts.get(nodeId), "PUBSUB NUMSUB " + channel, 4);
    if (!lines.get(0).equals("*2") || !lines.get(3).startsWith(":")) {
      throw new IOException("PUBSUB NUMSUB " + channel + " on " + nodeId + " answered " + lines);
    }
    return Long.parseLong(lines.get(3).substring(1));
  }

  /** Kills one redis-server (SIGKILL) and waits for it to be gone. */
  void stopRedis(String nodeId) {
    stop(redisProcesses.get(nodeId));
  }

  /** Kills etcd and waits for it to be gone. */
  void stopEtcd() {
    stop(etcd);
  }

  private void startEtcd() throws IOException {
    IOException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int clientPort = freePort();
      int peerPort = freePort();
      String client = "http://127.0.0.1:" + clientPort;
      String peer = "http://127.0.0.1:" + peerPort;
      Path data = dir.resolve("etcd-" + attempt);
      Process process =
          launch(
              "etcd-" + attempt,
              List.of(
                  "etcd",
                  "--name",
                  "it",
                  "--data-dir",
                  data.toString(),
                  "--listen-client-urls",
                  client,
                  "--advertise-client-urls",
                  client,
                  "--listen-peer-urls",
                  peer,
                  "--initial-advertise-peer-urls",
                  peer,
                  "--initial-cluster",
                  "it=" + peer,
                  "--initial-cluster-state",
                  "new"));
      try {
        awaitReady(process, "etcd-" + attempt, () -> etcdHealthy(client));
        etcd = process;
        etcdEndpoint = client;
        return;
      } catch (IOException e) {
        last = e;
        stop(process);
      }
    }
    throw last;
  }

  private void startRedis(String nodeId) throws IOException {
    IOException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int port = freePort();
      Path data = Files.createDirectories(dir.resolve(nodeId + "-" + attempt));
      Process process =
          launch(
              nodeId + "-" + attempt,
              List.of(
                  "redis-server",
                  "--port",
                  Integer.toString(port),
                  "--bind",
                  "127.0.0.1",
                  "--save",
                  "",
                  "--appendonly",
                  "no",
                  "--protected-mode",
                  "no",
                  "--dir",
                  data.toString()));
      try {
        awaitReady(process, nodeId, () -> "+PONG".equals(inline(port, "PING")));
        redisPorts.put(nodeId, port);
        redisProcesses.put(nodeId, process);
        return;
      } catch (IOException e) {
        last = e;
        stop(process);
      }
    }
    throw last;
  }

  private void writeTopology(String cluster, int shards) {
    Map<String, Node> nodes = new LinkedHashMap<>();
    redisPorts.forEach((id, port) -> nodes.put(id, Node.of(id, "127.0.0.1", port)));
    try (TopologyAdmin admin =
        TopologyAdmin.create(
            EtcdTopologyOptions.builder().endpoints(etcdEndpoint).cluster(cluster).build())) {
      admin.init(nodes, shards, 0);
    }
  }

  private Process launch(String name, List<String> command) throws IOException {
    Path log = dir.resolve(name + ".log");
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new IOException(
          "cannot run " + command.get(0) + " (bin/test installs etcd-server and redis-server)", e);
    }
    synchronized (processes) {
      processes.add(process);
    }
    return process;
  }

  @FunctionalInterface
  private interface Probe {
    boolean ready() throws IOException;
  }

  private void awaitReady(Process process, String name, Probe probe) throws IOException {
    try {
      await(name + " to answer on 127.0.0.1")
          .atMost(READY_TIMEOUT)
          .pollInterval(Duration.ofMillis(50))
          .ignoreExceptionsInstanceOf(IOException.class)
          .until(
              () -> {
                if (!process.isAlive()) {
                  throw new IllegalStateException(name + " exited with " + process.exitValue());
                }
                return probe.ready();
              });
    } catch (RuntimeException e) {
      throw new IOException(name + " did not start: " + e.getMessage() + "\n" + logTail(name), e);
    }
  }

  private String logTail(String name) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve(name + ".log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static boolean etcdHealthy(String endpoint) throws IOException {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(endpoint + "/health"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Sends one inline command and reads that many answer lines. */
  private static List<String> lines(int port, String command, int count) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
      socket.setSoTimeout(2_000);
      OutputStream out = socket.getOutputStream();
      out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      List<String> lines = new ArrayList<>();
      StringBuilder line = new StringBuilder();
      while (lines.size() < count) {
        int read = in.read();
        if (read == -1) {
          break;
        }
        if (read == '\n') {
          lines.add(line.toString());
          line.setLength(0);
        } else if (read != '\r') {
          line.append((char) read);
        }
      }
      if (lines.size() < count) {
        throw new IOException(command + ": the connection ended after " + lines);
      }
      return lines;
    }
  }

  /** Sends one inline command and reads the first answer line. */
  private static String inline(int port, String command) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
      socket.setSoTimeout(2_000);
      OutputStream out = socket.getOutputStream();
      out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int read = in.read(); read != -1 && read != '\r'; read = in.read()) {
        line.append((char) read);
      }
      return line.toString();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void stop(Process process) {
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("process " + process.pid() + " did not exit");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void killAll() {
    List<Process> all;
    synchronized (processes) {
      all = new ArrayList<>(processes);
    }
    for (Process process : all) {
      process.destroy();
    }
    for (Process process : all) {
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
