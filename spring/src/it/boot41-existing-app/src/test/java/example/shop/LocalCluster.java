package example.shop;

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
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * One etcd and N redis-servers on free 127.0.0.1 ports, with a Jumpgate shard map in etcd (nodes
 * {@code leader-0} ..), for this application's test: the application itself knows nothing of it.
 * {@link #close()} kills every process and deletes the temp dir.
 */
final class LocalCluster implements AutoCloseable {
  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final Map<String, Integer> redisPorts = new LinkedHashMap<>();
  private String etcdEndpoint;

  private LocalCluster(Path dir) {
    this.dir = dir;
  }

  static LocalCluster start(int shards, int leaders) throws IOException {
    LocalCluster cluster = new LocalCluster(Files.createTempDirectory("boot41-existing-app"));
    try {
      cluster.startEtcd();
      for (int leader = 0; leader < leaders; leader++) {
        cluster.startRedis("leader-" + leader);
      }
      Map<String, Node> nodes = new LinkedHashMap<>();
      cluster.redisPorts.forEach((id, port) -> nodes.put(id, Node.of(id, "127.0.0.1", port)));
      try (TopologyAdmin admin =
          TopologyAdmin.create(
              EtcdTopologyOptions.builder().endpoints(cluster.etcdEndpoint).build())) {
        admin.init(nodes, shards, 0);
      }
      return cluster;
    } catch (RuntimeException | IOException | Error e) {
      cluster.close();
      throw e;
    }
  }

  String etcdEndpoint() {
    return etcdEndpoint;
  }

  List<String> nodeIds() {
    return List.copyOf(redisPorts.keySet());
  }

  /** Whether one node holds the key (EXISTS, on a connection of its own). */
  boolean holds(String nodeId, String key) throws IOException {
    return number(nodeId, "EXISTS " + key) == 1;
  }

  /** PTTL of the key on one node (-2: no such key, -1: no expiry). */
  long pttl(String nodeId, String key) throws IOException {
    return number(nodeId, "PTTL " + key);
  }

  private long number(String nodeId, String command) throws IOException {
    String answer = inline(redisPorts.get(nodeId), command);
    if (!answer.startsWith(":")) {
      throw new IOException(command + " on " + nodeId + " answered " + answer);
    }
    return Long.parseLong(answer.substring(1));
  }

  private void startEtcd() throws IOException {
    String client = "http://127.0.0.1:" + freePort();
    String peer = "http://127.0.0.1:" + freePort();
    Process etcd =
        launch(
            "etcd",
            List.of(
                "etcd",
                "--name",
                "it",
                "--data-dir",
                dir.resolve("etcd").toString(),
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
    awaitReady(etcd, "etcd", () -> etcdHealthy(client));
    etcdEndpoint = client;
  }

  private void startRedis(String nodeId) throws IOException {
    int port = freePort();
    Path data = Files.createDirectories(dir.resolve(nodeId));
    Process redis =
        launch(
            nodeId,
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
                "--dir",
                data.toString()));
    awaitReady(redis, nodeId, () -> "+PONG".equals(inline(port, "PING")));
    redisPorts.put(nodeId, port);
  }

  private Process launch(String name, List<String> command) throws IOException {
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".log").toFile())
            .start();
    processes.add(process);
    return process;
  }

  private void awaitReady(Process process, String name, Callable<Boolean> ready) {
    Awaitility.await(name + " to answer on 127.0.0.1")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptionsInstanceOf(IOException.class)
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue());
              }
              return ready.call();
            });
  }

  private static boolean etcdHealthy(String endpoint) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(endpoint + "/health"))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
  }

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

  @Override
  public void close() {
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
