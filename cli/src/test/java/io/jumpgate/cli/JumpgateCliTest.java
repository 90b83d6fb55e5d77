package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.JumpgateException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class JumpgateCliTest {

  private static final String NEWLINE = System.lineSeparator();

  /** A verb that fails with whatever it is given. */
  @Command(name = "explode")
  static final class ExplodingCommand implements Callable<Integer> {
    private final Exception failure;

    ExplodingCommand(Exception failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() throws Exception {
      throw failure;
    }
  }

  private static CliRunner.Result runExploding(Exception failure) {
    CommandLine commandLine =
        JumpgateCli.newCommandLine().addSubcommand(new ExplodingCommand(failure));
    return CliRunner.run(commandLine, "explode");
  }

  @Test
  void unexpectedRuntimeFailureExitsOneWithOneLine() {
    CliRunner.Result result = runExploding(new IllegalStateException("boom"));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .startsWith("jumpgate explode: unexpected error: java.lang.IllegalStateException: boom");
    assertThat(result.err().lines()).hasSize(1);
  }

  @Test
  void unexpectedFailureWithoutMessageIsNamedByItsType() {
    CliRunner.Result result = runExploding(new NullPointerException());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .startsWith("jumpgate explode: unexpected error: java.lang.NullPointerException");
  }

  @Test
  void expectedFailureExitsOneWithItsMessageOnOneLine() {
    CliRunner.Result result =
        runExploding(new JumpgateException("etcd at 127.0.0.1:2379 is not reachable\nretried 3x"));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate explode: etcd at 127.0.0.1:2379 is not reachable retried 3x" + NEWLINE);
  }

  @Test
  void helpListsTheVerbsAndExitCodes() {
    CliRunner.Result result = CliRunner.run("--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .startsWith("Usage: jumpgate ")
        .contains("route", "Exit codes:", "--version");
  }

  @Test
  void versionPrintsTheProjectVersion() {
    CliRunner.Result result = CliRunner.run("--version");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).matches("(?s)jumpgate \\d+\\.\\d+\\.\\d+\\S*\\RJava .*");
  }

  @Test
  void noVerbIsAUsageError() {
    CliRunner.Result result = CliRunner.run();

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate: missing verb, one of: route, topology, clients, init, add-node, remove-node, move-shard, failover, rebalance, migrate, demo, exec; see 'jumpgate --help'"
                + NEWLINE);
  }

  @Test
  void unknownVerbIsAUsageErrorWithSuggestions() {
    CliRunner.Result result = CliRunner.run("rout", "x");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate: unknown verb 'rout', one of: route, topology, clients, init, add-node, remove-node, move-shard, failover, rebalance, migrate, demo, exec; did you mean route?"
                + NEWLINE);
  }

  @Test
  void everyVerbHasHelpWithExamples() {
    List<List<String>> verbs = new ArrayList<>();
    collectVerbs(JumpgateCli.newCommandLine(), List.of(), verbs);
    assertThat(verbs)
        .contains(
            List.of("route"),
            List.of("topology"),
            List.of("topology", "show"),
            List.of("topology", "watch"),
            List.of("topology", "validate"),
            List.of("topology", "export"),
            List.of("topology", "diff"));
    for (List<String> verb : verbs) {
      List<String> arguments = new ArrayList<>(verb);
      arguments.add("--help");
      CliRunner.Result result = CliRunner.run(arguments.toArray(String[]::new));

      String name = String.join(" ", verb);
      assertThat(result.exitCode()).as(name).isZero();
      assertThat(result.out())
          .as(name)
          .startsWith("Usage: jumpgate " + name)
          .contains("Examples:", "Exit codes:");
    }
  }

  private static void collectVerbs(
      CommandLine commandLine, List<String> path, List<List<String>> verbs) {
    commandLine
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> verb = new ArrayList<>(path);
              verb.add(name);
              verbs.add(verb);
              collectVerbs(sub, verb, verbs);
            });
  }

  @Test
  void topologyWithoutAVerbIsAUsageError() {
    CliRunner.Result result = CliRunner.run("topology");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate topology: missing verb, one of: show, watch, validate, export, diff;"
                + " see 'jumpgate topology --help'"
                + NEWLINE);
  }

  @Test
  void unknownOptionIsNamedWithoutTheArgumentsAfterIt() {
    CliRunner.Result spaced = CliRunner.run("topology", "show", "--pasword", "s3cr3t-value");
    CliRunner.Result joined = CliRunner.run("topology", "show", "--pasword=s3cr3t-value");

    for (CliRunner.Result result : List.of(spaced, joined)) {
      assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
      assertThat(result.err())
          .isEqualTo(
              "jumpgate topology show: Unknown option: '--pasword'; did you mean --password?"
                  + NEWLINE);
    }
  }

  /** A verb that takes a password and fails with a message that holds it. */
  @Command(name = "leak")
  static final class LeakingCommand implements Callable<Integer> {
    @picocli.CommandLine.Option(names = "--password")
    private String password;

    @Override
    public Integer call() {
      throw new JumpgateException("refused " + password + ", env-secret and env-secret");
    }
  }

  @Test
  void passwordsAreScrubbedFromEveryMessage() {
    CommandLine commandLine =
        JumpgateCli.newCommandLine(Map.of("JUMPGATE_ETCD_PASSWORD", "env-secret"))
            .addSubcommand(new LeakingCommand());

    CliRunner.Result spaced = CliRunner.run(commandLine, "leak", "--password", "cli-secret");
    CliRunner.Result joined = CliRunner.run(commandLine, "leak", "--password=cli-secret");

    for (CliRunner.Result result : List.of(spaced, joined)) {
      assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
      assertThat(result.err()).isEqualTo("jumpgate leak: refused ***, *** and ***" + NEWLINE);
    }
  }

  /** A verb that takes a Redis password and fails with a message that holds it. */
  @Command(name = "leak-redis")
  static final class LeakingRedisCommand implements Callable<Integer> {
    @picocli.CommandLine.Option(names = "--redis-password")
    private String password;

    @Override
    public Integer call() {
      throw new JumpgateException("refused " + password + " and redis-env-secret");
    }
  }

  @Test
  void redisPasswordsAreScrubbedFromEveryMessage() {
    CommandLine commandLine =
        JumpgateCli.newCommandLine(Map.of("JUMPGATE_REDIS_PASSWORD", "redis-env-secret"))
            .addSubcommand(new LeakingRedisCommand());

    CliRunner.Result result =
        CliRunner.run(commandLine, "leak-redis", "--redis-password", "redis-cli-secret");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err()).isEqualTo("jumpgate leak-redis: refused *** and ***" + NEWLINE);
  }
}
