package example.catalog;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** redis-cli against one node of the test cluster, each call bounded to 10 s. */
final class RedisCli {
  private RedisCli() {}

  /** The command's answer as redis-cli prints it (raw mode), trimmed. */
  static String run(int port, String... command) {
    List<String> line = new ArrayList<>(List.of("redis-cli", "--raw", "-h", "127.0.0.1", "-p"));
    line.add(Integer.toString(port));
    line.addAll(List.of(command));
    try {
      Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return fail("redis-cli did not answer within 10 s: %s", line);
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        return fail("redis-cli exited with %d: %s: %s", process.exitValue(), line, output);
      }
      return output.trim();
    } catch (IOException e) {
      return fail("redis-cli could not run (is it on the PATH?): " + line, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail("interrupted while waiting for redis-cli", e);
    }
  }
}
