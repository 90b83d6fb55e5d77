package io.jumpgate.testkit.internal;

import io.jumpgate.testkit.LocalClusterException;
import io.jumpgate.testkit.LocalServer;
import io.jumpgate.testkit.RedisCliException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code redis-cli} once against a server on 127.0.0.1 and returns what it printed: {@code
 * --raw} output (a string as is, an integer as its digits, an array one element a line, a missing
 * value as an empty line), with {@code -e} so that an error answer ends it with a non-zero status.
 * The password goes in the environment ({@code REDISCLI_AUTH}), not on the command line. Its output
 * goes to a temp file, so a redis-cli that never ends cannot block the caller past the bound.
 * Stateless, thread-safe.
 */
public final class RedisCli {

  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

  private RedisCli() {}

  /**
   * Runs {@code redis-cli -e --raw -h 127.0.0.1 -p <port> [--user <username>] <arguments>}.
   *
   * @param environment the environment whose {@code PATH} has redis-cli (this process's: {@code
   *     System.getenv()})
   * @param target the server in messages, such as {@code leader-0 (127.0.0.1:6379)}
   * @param username the ACL user, or null for the default user without a password
   * @param password the user's password, or null
   * @param timeout how long redis-cli may take in all
   * @return its output without the last line end
   * @throws RedisCliException naming the target, the command and the output when redis-cli is
   *     missing, cannot start, exits with an error or does not end within the timeout
   */
  public static String run(
      Map<String, String> environment,
      String target,
      int port,
      String username,
      String password,
      Duration timeout,
      List<String> arguments) {
    if (arguments.isEmpty()) {
      throw new IllegalArgumentException("redis-cli on " + target + ": no command given");
    }
    for (String argument : arguments) {
      if (argument == null) {
        throw new IllegalArgumentException(
            "redis-cli on " + target + ": a null argument in " + arguments);
      }
    }
    String shown = "redis-cli " + String.join(" ", arguments) + " on " + target;
    Path binary;
    try {
      binary =
          Binaries.findLocal(LocalServer.Program.REDIS_CLI, environment)
              .orElseThrow(
                  () ->
                      new LocalClusterException(
                          "redis-cli was not found on the PATH ("
                              + environment.getOrDefault("PATH", "")
                              + "). On Debian or Ubuntu install the redis-tools package: "
                              + Binaries.installCommand(LocalServer.Program.REDIS_CLI)));
    } catch (LocalClusterException e) {
      throw new RedisCliException(shown + " could not run: " + e.getMessage(), arguments, "", e);
    }
    List<String> line = new ArrayList<>();
    line.addAll(List.of(binary.toString(), "-e", "--raw", "-h", "127.0.0.1"));
    line.addAll(List.of("-p", Integer.toString(port)));
    if (username != null) {
      line.addAll(List.of("--user", username));
    }
    line.addAll(arguments);
    Path output = null;
    Process process = null;
    try {
      output = Files.createTempFile("jumpgate-testkit-redis-cli-", ".out");
      ProcessBuilder builder =
          new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      builder.environment().remove("REDISCLI_AUTH");
      if (password != null) {
        builder.environment().put("REDISCLI_AUTH", password);
      }
      process = builder.start();
      process.getOutputStream().close();
      boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        process.destroyForcibly().waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        String printed = read(output);
        throw new RedisCliException(
            shown + " did not end within " + describe(timeout) + "; it printed: " + printed.strip(),
            arguments,
            printed,
            null);
      }
      String printed = read(output);
      if (process.exitValue() != 0) {
        throw new RedisCliException(
            shown + " failed with exit status " + process.exitValue() + ": " + printed.strip(),
            arguments,
            printed,
            null);
      }
      return printed.endsWith("\n") ? printed.substring(0, printed.length() - 1) : printed;
    } catch (IOException e) {
      throw new RedisCliException(shown + " could not run: " + e.getMessage(), arguments, "", e);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new RedisCliException(shown + " was interrupted", arguments, "", e);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a temp file left behind; nothing else to do
        }
      }
    }
  }

  private static String read(Path output) throws IOException {
    return Files.readString(output, StandardCharsets.UTF_8);
  }

  private static String describe(Duration timeout) {
    return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
  }
}
