package io.jumpgate.testkit;

import io.jumpgate.testkit.internal.Binaries;
import io.jumpgate.testkit.internal.Launcher;
import io.jumpgate.testkit.internal.Launcher.Launched;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.RandomAccessFile;
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
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One server process on 127.0.0.1 (an etcd member, a redis-server, or a program of the caller's),
 * with a dir of its own: its data and {@code server.log}, which receives stdout and stderr of every
 * start. Subclasses give the arguments and the readiness probe; {@link RedisServer} and {@link
 * EtcdServers} are the testkit's.
 *
 * <p>The program is found by {@link Program}: the path in its environment variable, else the {@code
 * PATH}; when it is missing and a Docker engine answers, the program's image runs with the host's
 * network instead (a Testcontainers container; Testcontainers must then be on the class path);
 * otherwise the start fails naming the install command.
 *
 * <p>Every operation waits until it took effect, bounded: {@link #start()} and {@link #restart()}
 * until the probe says ready (default {@link #DEFAULT_READY_TIMEOUT}; an exit while starting fails
 * at once with the log), {@link #kill9()} and {@link #stop()} until the process is gone (10 s),
 * {@link #pause()} / {@link #resume()} until the kernel reports every thread stopped / running
 * again (5 s). A restart reuses the same ports, arguments and data. {@link #close()} kills the
 * process (SIGCONT first if paused) and deletes its dir; a JVM shutdown hook closes what is left.
 *
 * <p>Thread-safe: the lifecycle methods are synchronized; the readiness wait runs outside the lock.
 */
public abstract class LocalServer implements AutoCloseable {

  /**
   * A program the testkit can run: its binary's name (or absolute path), the environment variable
   * that may point at it, the Debian package that installs it, and, for the container fallback, an
   * image and the binary's path in it (both null when there is none). Immutable.
   */
  public record Program(
      String binary,
      String environmentVariable,
      String debianPackage,
      String image,
      String entrypoint) {

    /** {@code etcd}: {@code JUMPGATE_ETCD_BIN}, package etcd-server, image etcd v3.5.17. */
    public static final Program ETCD =
        new Program(
            "etcd",
            "JUMPGATE_ETCD_BIN",
            "etcd-server",
            "quay.io/coreos/etcd:v3.5.17",
            "/usr/local/bin/etcd");

    /** {@code etcdctl}: {@code JUMPGATE_ETCDCTL_BIN}, package etcd-client. */
    public static final Program ETCDCTL =
        new Program(
            "etcdctl",
            "JUMPGATE_ETCDCTL_BIN",
            "etcd-client",
            "quay.io/coreos/etcd:v3.5.17",
            "/usr/local/bin/etcdctl");

    /** {@code redis-server}: {@code JUMPGATE_REDIS_BIN}, package redis-server, image redis 7.2. */
    public static final Program REDIS_SERVER =
        new Program(
            "redis-server", "JUMPGATE_REDIS_BIN", "redis-server", "redis:7.2", "redis-server");

    /** {@code redis-cli}: {@code JUMPGATE_REDIS_CLI_BIN}, package redis-tools; no container. */
    public static final Program REDIS_CLI =
        new Program("redis-cli", "JUMPGATE_REDIS_CLI_BIN", "redis-tools", null, null);

    /** How this JVM runs the program: a local binary's path, or an image. */
    public String describe() {
      return Binaries.launcher(this).description();
    }

    /**
     * Runs the program to completion in a new temp dir (etcdctl), killing it after {@code timeout}.
     *
     * @throws LocalClusterException when it cannot start or runs past the timeout
     */
    public CommandResult run(List<String> args, Map<String, String> environment, Duration timeout) {
      Path workDir = null;
      try {
        workDir = Files.createTempDirectory("jumpgate-" + binary + "-");
        return Binaries.launcher(this).run(args, workDir, environment, timeout);
      } catch (IOException e) {
        throw new LocalClusterException("cannot run " + binary + " " + String.join(" ", args), e);
      } finally {
        deleteRecursively(workDir);
      }
    }
  }

  /** A server exited while starting because one of its ports was taken: start afresh elsewhere. */
  public static final class PortTakenException extends LocalClusterException {
    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
      super(message);
    }
  }

  /** How long a start or restart may take until the server is ready, unless told otherwise. */
  public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(20);

  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);
  private static final int LOG_LINES = 40;
  private static final Set<LocalServer> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(LocalServer::closeAllLive, "jumpgate-testkit-cleanup"));
  }

  private final String name;
  private final Path dir;
  private final Path logFile;
  private final Program program;
  private final Duration readyTimeout;

  private Launcher launcher;
  private Launched current;
  private boolean paused;
  private boolean closed;
  private boolean leftRunning;
  private long logOffsetAtStart;
  private int starts;

  /**
   * @param name for messages, e.g. {@code etcd1-m0} or {@code redis3}
   * @param dir the server's own dir (made at the first start, deleted by {@link #close()})
   * @param program what to run
   * @param readyTimeout how long a start may take until {@link #probeReady()} holds
   */
  protected LocalServer(String name, Path dir, Program program, Duration readyTimeout) {
    this.name = name;
    this.dir = dir;
    this.logFile = dir.resolve("server.log");
    this.program = program;
    this.readyTimeout = readyTimeout;
  }

  /**
   * Starts a server made by {@code create} and waits until it is ready; when it finds a port taken
   * ({@link PortTakenException}), closes it and starts a fresh one (new ports), {@code attempts}
   * times at most.
   */
  public static <T extends LocalServer> T startOnFreePorts(int attempts, Supplier<T> create) {
    return startOnFreePorts(attempts, "", create, LocalServer::start, LocalServer::close);
  }

  /**
   * The retry of {@link #startOnFreePorts(int, Supplier)} for anything that starts on ports it
   * picked (a server, a cluster of them): {@code create} a fresh one, {@code start} it; on a {@link
   * PortTakenException} {@code close} it and try again, {@code attempts} times at most; on any
   * other failure close it and rethrow. {@code what} names it in the error (e.g. {@code " etcd"}).
   */
  static <T> T startOnFreePorts(
      int attempts, String what, Supplier<T> create, Consumer<T> start, Consumer<T> close) {
    PortTakenException last = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      T server = create.get();
      try {
        start.accept(server);
        return server;
      } catch (PortTakenException e) {
        last = e;
        close.accept(server);
      } catch (RuntimeException e) {
        close.accept(server);
        throw e;
      }
    }
    throw new LocalClusterException(
        "could not start" + what + " after " + attempts + " attempts (ports taken)", last);
  }

  /** The command line arguments (the same for every start). */
  protected abstract List<String> args();

  /** Environment variables added for the process; none by default. */
  protected Map<String, String> env() {
    return Map.of();
  }

  /** One readiness probe, with a short timeout of its own; true when the server is ready. */
  protected abstract boolean probeReady() throws Exception;

  /** What {@link #probeReady()} checks, for messages ("answer PING with PONG"). */
  protected abstract String readiness();

  /** How long a start or restart may take until the server is ready. */
  public Duration readyTimeout() {
    return readyTimeout;
  }

  /** The name in messages. */
  public String name() {
    return name;
  }

  /** This server's dir (data and log); deleted by {@link #close()}. */
  public Path dir() {
    return dir;
  }

  /** The file that receives stdout and stderr of every start of this server. */
  public Path logFile() {
    return logFile;
  }

  /** How this server is run: the binary's path, or a Docker image. */
  public synchronized String programDescription() {
    return launcher().description();
  }

  /** The pid of the current (or last) start, -1 before the first start or when unknown. */
  public synchronized long pid() {
    return current == null ? -1 : current.pid();
  }

  /** True while the process exists, including while it is paused. */
  public synchronized boolean isRunning() {
    return current != null && current.isAlive();
  }

  /** True between {@link #pause()} and {@link #resume()} (or a kill). */
  public synchronized boolean isPaused() {
    return paused && isRunning();
  }

  /** The exit status once the process is gone (137 after SIGKILL), -1 while it runs or unknown. */
  public synchronized int exitStatus() {
    return current == null ? -1 : current.exitStatus();
  }

  /** How many times the process was started (1 after the first start). */
  public synchronized int starts() {
    return starts;
  }

  /**
   * Starts the process and waits until it is ready.
   *
   * @throws PortTakenException when it exited because a port was taken
   * @throws LocalClusterException when it exits otherwise or is not ready in time, with its log
   */
  public void start() {
    startWithoutWaiting();
    awaitReady();
  }

  /**
   * Starts the process without waiting until it is ready (an etcd member that can only become
   * healthy once a quorum runs); call {@link #awaitReady()} later.
   */
  public synchronized void startWithoutWaiting() {
    if (closed) {
      throw new IllegalStateException(name + " was closed");
    }
    if (isRunning()) {
      throw new IllegalStateException(name + " is already running (pid " + pid() + ")");
    }
    if (current != null) {
      current.release();
    }
    starts++;
    paused = false;
    try {
      Files.createDirectories(dir);
      logOffsetAtStart = Files.exists(logFile) ? Files.size(logFile) : 0;
      Files.writeString(
          logFile,
          "---- jumpgate testkit: start #"
              + starts
              + " of "
              + name
              + ": "
              + launcher().description()
              + " "
              + commandLine(args())
              + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      current = launcher().launch(args(), dir, logFile, env());
    } catch (IOException e) {
      throw new LocalClusterException(
          "cannot start " + name + " with " + launcher().description(), e);
    }
    LIVE.add(this);
  }

  private Launcher launcher() {
    if (launcher == null) {
      launcher = Binaries.launcher(program);
    }
    return launcher;
  }

  /** Waits until the server is ready, failing with the log tail after its ready timeout. */
  public void awaitReady() {
    awaitReady(readyTimeout);
  }

  /** Waits until the server is ready; fails at once (with the log tail) if the process exits. */
  public void awaitReady(Duration timeout) {
    BoundedWait.until(
        timeout,
        name + " to " + readiness(),
        () -> {
          checkAlive();
          return probeReady();
        },
        () -> describe(LOG_LINES));
  }

  private void checkAlive() {
    if (isRunning()) {
      return;
    }
    String message = name + " exited while starting\n" + describe(LOG_LINES);
    if (readLog(logOffsetAtStart).toLowerCase(Locale.ROOT).contains("address already in use")) {
      throw new PortTakenException(message);
    }
    throw new LocalClusterException(message);
  }

  /** SIGKILL; returns once the process is gone. */
  public synchronized void kill9() {
    requireRunning("kill -9");
    current.signal("KILL");
    awaitExit("SIGKILL");
    paused = false;
  }

  /**
   * SIGTERM (graceful; SIGCONT too if paused), then SIGKILL after 10 s; returns once it is gone.
   */
  public synchronized void stop() {
    requireRunning("stop");
    current.signal("TERM");
    if (paused) {
      current.signal("CONT");
      paused = false;
    }
    if (!current.awaitExit(EXIT_TIMEOUT)) {
      current.signal("KILL");
      awaitExit("SIGKILL after SIGTERM");
    }
  }

  /** SIGSTOP; returns once the kernel reports every thread stopped. */
  public synchronized void pause() {
    requireRunning("pause");
    current.signal("STOP");
    paused = true;
    awaitThreadState(true);
  }

  /** SIGCONT; returns once no thread is stopped any more. */
  public synchronized void resume() {
    requireRunning("resume");
    current.signal("CONT");
    paused = false;
    awaitThreadState(false);
  }

  /**
   * Stops the process if it still runs (SIGTERM), starts it again with the same ports, arguments
   * and dir, and waits until it is ready.
   */
  public void restart() {
    restartWithoutWaiting();
    awaitReady();
  }

  /** Like {@link #restart()} without the readiness wait; call {@link #awaitReady()} later. */
  public synchronized void restartWithoutWaiting() {
    if (isRunning()) {
      stop();
    }
    startWithoutWaiting();
  }

  /**
   * Leaves the process running when this JVM exits (the shutdown hook no longer stops it), and
   * makes {@link #close()} do nothing; the caller stops the process ({@link #pid()}) and deletes
   * {@link #dir()}.
   */
  public synchronized void leaveRunning() {
    leftRunning = true;
    LIVE.remove(this);
  }

  /** Kills the process (SIGCONT first if paused) and deletes its dir. Idempotent. */
  @Override
  public synchronized void close() {
    if (leftRunning) {
      return;
    }
    closed = true;
    try {
      if (current != null) {
        if (current.isAlive()) {
          if (paused) {
            current.signal("CONT");
            paused = false;
          }
          current.signal("KILL");
          awaitExit("SIGKILL on cleanup");
        }
        current.release();
      }
    } finally {
      LIVE.remove(this);
      deleteRecursively(dir);
    }
  }

  /** The last {@code lines} lines of the log, with a header naming the server and its state. */
  public String describe(int lines) {
    String state;
    synchronized (this) {
      state =
          current == null
              ? "never started"
              : (isRunning() ? (paused ? "paused" : "running") : "exited") + ", pid " + pid();
    }
    return "---- "
        + name
        + " ("
        + state
        + ", log "
        + logFile
        + "), last "
        + lines
        + " lines:\n"
        + logTail(lines);
  }

  /** The last {@code lines} lines of the log (at most of its last 64 KiB). */
  public String logTail(int lines) {
    long size;
    try {
      size = Files.exists(logFile) ? Files.size(logFile) : 0;
    } catch (IOException e) {
      size = 0;
    }
    List<String> all = readLog(Math.max(0, size - 65_536)).lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  private String readLog(long from) {
    if (!Files.exists(logFile)) {
      return "";
    }
    try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
      long start = Math.min(from, file.length());
      byte[] bytes = new byte[(int) Math.min(file.length() - start, 1 << 20)];
      file.seek(start);
      file.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + logFile + ": " + e + ")";
    }
  }

  private void requireRunning(String operation) {
    if (!isRunning()) {
      throw new LocalClusterException(
          "cannot " + operation + " " + name + ": it is not running\n" + describe(20));
    }
  }

  private void awaitExit(String after) {
    if (!current.awaitExit(EXIT_TIMEOUT)) {
      throw new LocalClusterException(
          name
              + " (pid "
              + pid()
              + ") still runs "
              + EXIT_TIMEOUT.toSeconds()
              + " s after "
              + after);
    }
  }

  /** Waits until all threads are (or none is) in state T, read from /proc where there is one. */
  private void awaitThreadState(boolean stopped) {
    long pid = pid();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (pid <= 0 || !Files.isDirectory(tasks)) {
      return;
    }
    BoundedWait.until(
        SIGNAL_TIMEOUT,
        name + " (pid " + pid + ") to be " + (stopped ? "stopped" : "running again"),
        () -> {
          List<Character> states = threadStates(tasks);
          return stopped
              ? !states.isEmpty() && states.stream().allMatch(s -> s == 'T' || s == 't')
              : states.stream().noneMatch(s -> s == 'T' || s == 't');
        },
        null);
  }

  private static List<Character> threadStates(Path tasks) throws IOException {
    List<Character> states = new ArrayList<>();
    try (Stream<Path> list = Files.list(tasks)) {
      for (Path task : list.toList()) {
        try (BufferedReader reader = Files.newBufferedReader(task.resolve("stat"))) {
          String stat = reader.readLine();
          // pid (comm) S ...: comm may hold spaces and parentheses; the state follows the last ')'
          states.add(stat.charAt(stat.lastIndexOf(')') + 2));
        } catch (IOException e) {
          // the thread exited meanwhile
        }
      }
    }
    return states;
  }

  private static String commandLine(List<String> args) {
    return args.stream().map(a -> a.isEmpty() ? "''" : a).collect(Collectors.joining(" "));
  }

  /** Deletes a file tree if it exists; a failure is printed to stderr, not thrown. */
  public static void deleteRecursively(Path path) {
    if (path == null || !Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(each);
      }
    } catch (IOException e) {
      System.err.println("jumpgate testkit: cannot delete " + path + ": " + e);
    }
  }

  private static void closeAllLive() {
    for (LocalServer server : List.copyOf(LIVE)) {
      try {
        server.close();
      } catch (RuntimeException e) {
        System.err.println("jumpgate testkit: cleanup of " + server.name + " failed: " + e);
      }
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + pid() + ")";
  }
}
