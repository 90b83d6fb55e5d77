package io.jumpgate.testkit.internal;

import io.jumpgate.testkit.LocalClusterException;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One server process (etcd or redis-server): its command, data folder and log ({@code
 * <dir>/<name>.log}, stdout and stderr, appended across restarts). Starts it, waits until a probe
 * says it is ready, signals, stops.
 *
 * <p>Thread-safe: every method that touches the process is synchronized; none waits longer than its
 * bound.
 */
public final class ServerProcess {

  /** How long a start may take until the probe answers. */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

  /** How long a process may take to exit after SIGTERM, and again after SIGKILL. */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration PROBE_INTERVAL = Duration.ofMillis(20);
  private static final int LOG_TAIL_LINES = 25;

  private final String name;
  private final List<String> command;
  private final Path data;
  private final Path log;
  private Process process;

  /**
   * @param name the server's name in messages and its log's name
   * @param command the binary and its arguments
   * @param data the working folder (made when missing)
   * @param log the log file
   */
  public ServerProcess(String name, List<String> command, Path data, Path log) {
    this.name = name;
    this.command = List.copyOf(command);
    this.data = data;
    this.log = log;
  }

  /** The server's name. */
  public String name() {
    return name;
  }

  /** The log file. */
  public Path log() {
    return log;
  }

  /** The pid of the current process, or -1 before the first start. */
  public synchronized long pid() {
    return process == null ? -1 : process.pid();
  }

  /** Whether the process runs (a stopped, SIGSTOPped, process counts as running). */
  public synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  /**
   * Starts the process and waits until {@code ready} is true, at most {@link #READY_TIMEOUT}.
   *
   * @return false when the process exited because its port was taken (the caller may try other
   *     ports)
   * @throws LocalClusterException when it exits otherwise or is not ready in time, with the end of
   *     its log
   */
  public synchronized boolean start(BooleanSupplier ready, String readiness) {
    if (isAlive()) {
      throw new LocalClusterException(name + " is already running (pid " + pid() + ")");
    }
    try {
      Files.createDirectories(data);
      Files.writeString(
          log,
          "---- jumpgate testkit: " + String.join(" ", quoted()) + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      process =
          new ProcessBuilder(command)
              .directory(data.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new LocalClusterException("cannot start " + name + ": " + e.getMessage(), e);
    }
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      if (!process.isAlive()) {
        if (logTail(200).toLowerCase(Locale.ROOT).contains("address already in use")) {
          return false;
        }
        throw failure(name + " exited while starting (exit code " + process.exitValue() + ")");
      }
      if (ready.getAsBoolean()) {
        return true;
      }
      if (System.nanoTime() - deadline > 0) {
        process.destroyForcibly();
        throw failure(
            name + " did not " + readiness + " within " + READY_TIMEOUT.toSeconds() + " s");
      }
      pause();
    }
  }

  /** Sends SIGSTOP or SIGCONT (or another signal by name, without the SIG prefix). */
  public synchronized void signal(String signal) {
    if (!isAlive()) {
      throw new LocalClusterException("cannot send SIG" + signal + " to " + name + ": not running");
    }
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .start();
      String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!kill.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
        throw new LocalClusterException(
            "kill -" + signal + " " + process.pid() + " (" + name + ") failed: " + output);
      }
    } catch (IOException e) {
      throw new LocalClusterException("cannot run kill -" + signal + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalClusterException("interrupted during kill -" + signal, e);
    }
  }

  /** SIGKILL, then waits (bounded) until the process is gone. */
  public synchronized void kill() {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      if (!awaitExit(STOP_TIMEOUT)) {
        throw new LocalClusterException(name + " (pid " + pid() + ") survived SIGKILL");
      }
    }
  }

  /**
   * Stops the process: SIGCONT (in case it was stopped), SIGTERM, and SIGKILL after {@link
   * #STOP_TIMEOUT}. Idempotent.
   *
   * @return false when it still runs after SIGKILL and another {@link #STOP_TIMEOUT}
   */
  public synchronized boolean stop() {
    if (process == null || !process.isAlive()) {
      return true;
    }
    try {
      signal("CONT");
    } catch (LocalClusterException e) {
      // it exited meanwhile, or kill failed: SIGKILL below needs no SIGCONT
    }
    process.destroy();
    if (awaitExit(STOP_TIMEOUT)) {
      return true;
    }
    process.destroyForcibly();
    return awaitExit(STOP_TIMEOUT);
  }

  private boolean awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  private LocalClusterException failure(String message) {
    return new LocalClusterException(
        message
            + "; the last lines of "
            + log
            + ":"
            + System.lineSeparator()
            + logTail(LOG_TAIL_LINES));
  }

  /** The last {@code lines} lines of the log (from its last 64 KiB). */
  public String logTail(int lines) {
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

  private List<String> quoted() {
    List<String> parts = new ArrayList<>();
    for (String part : command) {
      parts.add(part.isEmpty() ? "''" : part);
    }
    return parts;
  }

  private static void pause() {
    try {
      Thread.sleep(PROBE_INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalClusterException("interrupted while waiting for a server to start", e);
    }
  }
}
