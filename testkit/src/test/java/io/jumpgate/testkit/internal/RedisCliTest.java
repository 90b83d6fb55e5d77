package io.jumpgate.testkit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.testkit.RedisCliException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The redis-cli runner when redis-cli is missing or never ends (no server needed). */
class RedisCliTest {

  @Test
  void should_name_the_command_and_the_package_when_redis_cli_is_not_on_the_path() {
    assertThatThrownBy(
            () ->
                RedisCli.run(
                    Map.of("PATH", "/nonexistent"),
                    "leader-0 (127.0.0.1:1)",
                    1,
                    null,
                    null,
                    Duration.ofSeconds(10),
                    List.of("EXISTS", "user:42")))
        .isInstanceOfSatisfying(
            RedisCliException.class,
            error -> {
              assertThat(error.command()).containsExactly("EXISTS", "user:42");
              assertThat(error.output()).isEmpty();
            })
        .hasMessageContaining("redis-cli EXISTS user:42 on leader-0 (127.0.0.1:1) could not run")
        .hasMessageContaining("redis-cli was not found on the PATH (/nonexistent)")
        .hasMessageContaining("sudo apt-get install -y redis-tools");
  }

  @Test
  void should_kill_a_redis_cli_that_does_not_end_within_the_bound(@TempDir Path folder)
      throws IOException {
    // A stand-in redis-cli that prints a line and then hangs.
    Path script = folder.resolve("redis-cli");
    Files.writeString(script, "#!/bin/sh\necho waiting\nexec /bin/sleep 60\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));

    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                RedisCli.run(
                    Map.of("PATH", folder.toString()),
                    "leader-1 (127.0.0.1:2)",
                    2,
                    null,
                    null,
                    Duration.ofMillis(300),
                    List.of("PING")))
        .isInstanceOfSatisfying(
            RedisCliException.class, error -> assertThat(error.output()).isEqualTo("waiting\n"))
        .hasMessage(
            "redis-cli PING on leader-1 (127.0.0.1:2) did not end within 300 ms; it printed: waiting");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void should_pass_the_password_in_the_environment_and_not_on_the_command_line(@TempDir Path folder)
      throws IOException {
    // A stand-in redis-cli that prints its arguments and the password it was given.
    Path script = folder.resolve("redis-cli");
    Files.writeString(script, "#!/bin/sh\necho \"$*\"\necho \"auth=$REDISCLI_AUTH\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));

    String answer =
        RedisCli.run(
            Map.of("PATH", folder.toString(), "REDISCLI_AUTH", "inherited"),
            "leader-0 (127.0.0.1:7000)",
            7000,
            "app",
            "s3cret",
            Duration.ofSeconds(10),
            List.of("GET", "a key"));

    assertThat(answer).isEqualTo("-e --raw -h 127.0.0.1 -p 7000 --user app GET a key\nauth=s3cret");
  }
}
