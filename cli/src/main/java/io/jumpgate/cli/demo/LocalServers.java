package io.jumpgate.cli.demo;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The etcd and redis-server processes of the demo, in one temp dir: each server's data in {@code
 * <dir>/<name>/}, its stdout and stderr in {@code <dir>/<name>.log}. Servers listen on free ports
 * of 127.0.0.1; a server that exits because its port was taken meanwhile is started again on new
 * ports. Every wait is bounded.
 *
 * <p>The processes are plain child processes: they outlive the JVM unless {@link #stopAll()} stops
 * them ({@code --keep} relies on that).
 *
 * <p>Thread-safe: {@link #stopAll()} may run on a shutdown hook while the main thread starts
 * servers; a server started after it (or while it ran) is killed at once and its start fails.
 */
final class LocalServers {

  /** Overrides the etcd binary. */
  static final String ETCD_VARIABLE = "JUMPGATE_ETCD_BIN";

  /** Overrides the redis-server binary. */
  static final String REDIS_VARIABLE = "JUMPGATE_REDIS_BIN";

  /** How long a server may take to become ready. */
  static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

  /** How long a server may take to exit after SIGTERM, and then after SIGKILL. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private static final int START_ATTEMPTS = 3;
  private static final Duration PROBE_INTERVAL = Duration.ofMillis(50);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
  private static final int LOG_TAIL_LINES = 20;

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(PROBE_TIMEOUT)
          .build();

  /**
   * One running server.
   *
   * @param logStart the size of the log when this start began: what it printed comes after
   */
  record Server(String name, int port, Process process, Path log, long logStart) {
    long pid() {
      return process.pid();
    }

    /** {@code 127.0.0.1:<port>}. */
    String address() {
      return "127.0.0.1:" + port;
    }
  }

  /**
   * What {@link #stopAll()} did.
   *
   * @param stopped servers that were running and are gone now
   * @param killed names of those that needed SIGKILL
   * @param survivors names of those still running even after SIGKILL
   */
  record StopResult(int stopped, List<String> killed, List<String> survivors) {}

  private final Path etcdBinary;
  private final Path redisBinary;
  private final Path dir;
  private final List<Server> servers = new CopyOnWriteArrayList<>();
  private final Set<Integer> portsHandedOut = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean stopping = new AtomicBoolean();

  private LocalServers(Path etcdBinary, Path redisBinary, Path dir) {
    this.etcdBinary = etcdBinary;
    this.redisBinary = redisBinary;
    this.dir = dir;
  }

  /**
   * Finds etcd and redis-server (from {@link #ETCD_VARIABLE} and {@link #REDIS_VARIABLE}, else on
   * the {@code PATH} of {@code environment}) and makes the temp dir.
   *
   * @throws DemoException naming the missing binary and how to install it
   */
  static LocalServers create(Map<String, String> environment) {
    Path etcd = findBinary("etcd", ETCD_VARIABLE, "etcd-server", environment);
    Path redis = findBinary("redis-server", REDIS_VARIABLE, "redis-server", environment);
    try {
      return new LocalServers(etcd, redis, Files.createTempDirectory("jumpgate-demo-"));
    } catch (IOException e) {
      throw new DemoException("cannot make a temp dir for the demo cluster: " + e.getMessage(), e);
    }
  }

  /**
   * The executable that {@code variable} names, else {@code command} on {@code PATH}.
   *
   * @throws DemoException naming the binary and the install command when there is none
   */
  static Path findBinary(
      String command, String variable, String debianPackage, Map<String, String> environment) {
    String override = environment.get(variable);
    if (override != null && !override.isBlank()) {
      Path path = Path.of(override);
      if (Files.isRegularFile(path) && Files.isExecutable(path)) {
        return path;
      }
      throw new DemoException(
          variable + "=" + override + " is not an executable file; point it at " + command);
    }
    for (String folder : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!folder.isEmpty()) {
        Path candidate = Path.of(folder, command);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    throw new DemoException(
        command
            + " is not installed (not on PATH, and "
            + variable
            + " is not set): install it with 'sudo apt-get update && sudo apt-get install -y "
            + debianPackage
            + "' (bin/jumpgate demo does it when run as root), or set "
            + variable
            + "=/path/to/"
            + command);
  }

  /** The temp dir that holds every server's data and log. */
  Path dir() {
    return dir;
  }

  /** The servers started so far, in start order. */
  List<Server> servers() {
    return List.copyOf(servers);
  }

  /**
   * Starts a one-member etcd on two free ports and waits until {@code GET /health} says healthy.
   * The returned server's port is the client port.
   */
  Server startEtcd(String name) {
    Path data = dir.resolve(name);
    return start(
        name,
        etcdBinary,
        2,
        ports -> {
          String client = "http://127.0.0.1:" + ports[0];
          String peer = "http://127.0.0.1:" + ports[1];
          return List.of(
              "--name=" + name,
              "--data-dir=" + data,
              "--listen-client-urls=" + client,
              "--advertise-client-urls=" + client,
              "--listen-peer-urls=" + peer,
              "--initial-advertise-peer-urls=" + peer,
              "--initial-cluster=" + name + "=" + peer,
              "--initial-cluster-state=new",
              // etcd refuses a transaction of more than 128 operations by default; the demo
              // writes the whole map (1024 shards, the nodes and meta) in one transaction, and a
              // failover rewrites a third of the shards with a compare per key in another.
              "--max-txn-ops=4096",
              "--logger=zap",
              "--log-outputs=stderr");
        },
        LocalServers::etcdHealthy,
        "answer GET /health with \"health\":\"true\"",
        data);
  }

  /**
   * Starts a redis-server without persistence on a free port and waits until it answers PING.
   *
   * @param extraArguments added after the demo's own, e.g. {@code --replicaof 127.0.0.1 <port>}
   */
  Server startRedis(String name, List<String> extraArguments) {
    Path data = dir.resolve(name);
    return start(
        name,
        redisBinary,
        1,
        ports -> {
          List<String> arguments = new ArrayList<>();
          arguments.addAll(List.of("--port", Integer.toString(ports[0]), "--bind", "127.0.0.1"));
          arguments.addAll(List.of("--save", "", "--appendonly", "no", "--dir", data.toString()));
          arguments.addAll(List.of("--protected-mode", "no", "--daemonize", "no"));
          arguments.addAll(List.of("--logfile", ""));
          arguments.addAll(extraArguments);
          return arguments;
        },
        LocalServers::redisAnswers,
        "answer PING",
        data);
  }

  private Server start(
      String name,
      Path binary,
      int portCount,
      Function<int[], List<String>> arguments,
      IntPredicate ready,
      String readiness,
      Path data) {
    Path log = dir.resolve(name + ".log");
    for (int attempt = 1; ; attempt++) {
      int[] ports = new int[portCount];
      for (int index = 0; index < portCount; index++) {
        ports[index] = freePort();
      }
      deleteRecursively(data);
      Server server = launch(name, binary, arguments.apply(ports), ports[0], data, log);
      if (awaitReady(server, ready, readiness)) {
        return server;
      }
      servers.remove(server);
      if (attempt == START_ATTEMPTS) {
        throw failure(
            name + " could not listen on a free port in " + START_ATTEMPTS + " tries", server);
      }
    }
  }

  private Server launch(
      String name, Path binary, List<String> arguments, int port, Path data, Path log) {
    if (stopping.get()) {
      throw new DemoException("the demo was stopped while starting " + name);
    }
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(arguments);
    try {
      Files.createDirectories(data);
      Files.writeString(
          log,
          "---- jumpgate demo: "
              + command.stream()
                  .map(part -> part.isEmpty() ? "''" : part)
                  .collect(Collectors.joining(" "))
              + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      long logStart = Files.size(log);
      Process process =
          new ProcessBuilder(command)
              .directory(data.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      Server server = new Server(name, port, process, log, logStart);
      servers.add(server);
      if (stopping.get()) { // stopAll() ran meanwhile and may have missed it
        process.destroyForcibly();
        throw new DemoException("the demo was stopped while starting " + name);
      }
      return server;
    } catch (IOException e) {
      throw new DemoException("cannot start " + name + " (" + binary + "): " + e.getMessage(), e);
    }
  }

  /** True when ready, false when it exited because its port was taken; throws otherwise. */
  private boolean awaitReady(Server server, IntPredicate ready, String readiness) {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      if (stopping.get()) {
        throw new DemoException("the demo was stopped while starting " + server.name());
      }
      if (!server.process().isAlive()) {
        if (logTail(server.log(), 200)
            .toLowerCase(Locale.ROOT)
            .contains("address already in use")) {
          return false;
        }
        throw failure(
            server.name()
                + " exited while starting (exit code "
                + server.process().exitValue()
                + ")",
            server);
      }
      if (ready.test(server.port())) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        throw failure(
            server.name()
                + " did not "
                + readiness
                + " on "
                + server.address()
                + " within "
                + READY_TIMEOUT.toSeconds()
                + " s",
            server);
      }
      pause(PROBE_INTERVAL);
    }
  }

  private DemoException failure(String message, Server server) {
    return new DemoException(
        message + "; the end of its log is above",
        "---- the last lines of "
            + server.log()
            + ":"
            + System.lineSeparator()
            + logTail(server.log(), LOG_TAIL_LINES),
        null);
  }

  /**
   * SIGTERM to every server, then SIGKILL to those still running after {@link #STOP_TIMEOUT}.
   * Returns once every server is gone or the bounds have passed. Idempotent; a server started
   * afterwards is killed at once.
   */
  synchronized StopResult stopAll() {
    stopping.set(true);
    List<Server> running = servers.stream().filter(server -> server.process().isAlive()).toList();
    running.forEach(server -> server.process().destroy());
    long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
    List<String> killed = new ArrayList<>();
    for (Server server : running) {
      if (!awaitExit(server.process(), deadline - System.nanoTime())) {
        server.process().destroyForcibly();
        killed.add(server.name());
      }
    }
    List<String> survivors = new ArrayList<>();
    for (Server server : running) {
      if (!awaitExit(server.process(), STOP_TIMEOUT.toNanos())) {
        survivors.add(server.name() + " (pid " + server.pid() + ")");
      }
    }
    return new StopResult(running.size() - survivors.size(), killed, survivors);
  }

  private static boolean awaitExit(Process process, long nanos) {
    try {
      return process.waitFor(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  /** Deletes the temp dir. */
  void deleteDir() {
    deleteRecursively(dir);
  }

  /** A port of 127.0.0.1 that was free a moment ago and was not handed out before. */
  private int freePort() {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (portsHandedOut.add(port)) {
          return port;
        }
      } catch (IOException e) {
        throw new DemoException("cannot bind a port on 127.0.0.1: " + e.getMessage(), e);
      }
    }
    throw new DemoException("found no free port on 127.0.0.1");
  }

  private static boolean etcdHealthy(int port) {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                  .timeout(PROBE_TIMEOUT)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200
          && response.body().replace(" ", "").contains("\"health\":\"true\"");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean redisAnswers(int port) {
    try {
      return "PONG".equals(Resp.call(port, PROBE_TIMEOUT, "PING"));
    } catch (IOException e) {
      return false;
    }
  }

  /** What a log holds from byte {@code offset} on (at most 64 KiB). */
  static String logSince(Path log, long offset) {
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      long start = Math.max(offset, file.length() - 65_536);
      byte[] bytes = new byte[(int) Math.max(0, file.length() - start)];
      file.seek(start);
      file.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** The last {@code lines} lines of a log (read from its last 64 KiB). */
  static String logTail(Path log, int lines) {
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      long start = Math.max(0, file.length() - 65_536);
      byte[] bytes = new byte[(int) (file.length() - start)];
      file.seek(start);
      file.readFully(bytes);
      List<String> all = new String(bytes, StandardCharsets.UTF_8).lines().toList();
      return String.join(
          System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(each);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + path + ": " + e.getMessage(), e);
    }
  }

  /** A pacing pause between probes. */
  static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoException("interrupted", e);
    }
  }
}
