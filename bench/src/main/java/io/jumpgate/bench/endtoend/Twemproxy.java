package io.jumpgate.bench.endtoend;

import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.Ports;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.it.fixture.Resp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A twemproxy ({@code nutcracker}) process on 127.0.0.1 in front of standalone redis-servers:
 * {@code hash: fnv1a_64}, {@code distribution: ketama}, one server connection per node. Its
 * configuration and log are written to a given dir. Killed by {@link #close()} and, as a last
 * resort, by a JVM shutdown hook.
 */
final class Twemproxy implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path log;
  private final Thread shutdownHook;

  private Twemproxy(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.shutdownHook = new Thread(process::destroyForcibly, "bench-twemproxy-cleanup");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * The nutcracker binary: {@code JUMPGATE_NUTCRACKER_BIN}, else {@code /usr/sbin/nutcracker} (the
   * Debian package's path, often not on a user's PATH), else {@code nutcracker} on PATH.
   */
  static String binary() {
    String override = System.getenv("JUMPGATE_NUTCRACKER_BIN");
    if (override != null && !override.isBlank()) {
      return override;
    }
    if (Files.isExecutable(Path.of("/usr/sbin/nutcracker"))) {
      return "/usr/sbin/nutcracker";
    }
    return "nutcracker";
  }

  /** The configuration file's text for {@code nodes} behind a listener on {@code port}. */
  static String configuration(int port, List<RedisProcess> nodes) {
    StringBuilder yaml =
        new StringBuilder()
            .append("bench:\n")
            .append("  listen: 127.0.0.1:")
            .append(port)
            .append('\n')
            .append("  hash: fnv1a_64\n")
            .append("  distribution: ketama\n")
            .append("  redis: true\n")
            .append("  preconnect: true\n")
            .append("  auto_eject_hosts: false\n")
            .append("  server_connections: 1\n")
            .append("  servers:\n");
    for (int index = 0; index < nodes.size(); index++) {
      yaml.append("   - 127.0.0.1:")
          .append(nodes.get(index).port())
          .append(":1 node")
          .append(index)
          .append('\n');
    }
    return yaml.toString();
  }

  /**
   * Writes the configuration into {@code dir}, starts nutcracker and waits until it answers PING.
   *
   * @throws IOException when nutcracker cannot be started
   * @throws IllegalStateException when it does not answer within 10 s (its log is in the message)
   */
  static Twemproxy start(Path dir, List<RedisProcess> nodes) throws IOException {
    int port = Ports.free();
    int statsPort = Ports.free();
    Path config = dir.resolve("nutcracker.yml");
    Files.writeString(config, configuration(port, nodes));
    Path log = dir.resolve("nutcracker.log");
    Process process =
        new ProcessBuilder(
                binary(),
                "-c",
                config.toString(),
                "-o",
                log.toString(),
                "-s",
                Integer.toString(statsPort),
                "-a",
                "127.0.0.1")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("nutcracker.out").toFile())
            .start();
    Twemproxy twemproxy = new Twemproxy(process, port, log);
    try {
      Poll.until(
          Duration.ofSeconds(10),
          "twemproxy on 127.0.0.1:" + port + " to answer PING",
          () -> {
            if (!process.isAlive()) {
              throw new IllegalStateException(
                  "nutcracker exited with " + process.exitValue() + ": " + twemproxy.logTail());
            }
            try {
              return "PONG".equals(Resp.call(port, Duration.ofSeconds(1), "PING"));
            } catch (IOException e) {
              return false;
            }
          });
    } catch (RuntimeException e) {
      twemproxy.close();
      throw new IllegalStateException(e.getMessage() + "; log: " + twemproxy.logTail(), e);
    }
    return twemproxy;
  }

  int port() {
    return port;
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway
    }
  }
}
