package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.JumpgateException;
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
        .isEqualTo("jumpgate: missing verb, one of: route; see 'jumpgate --help'" + NEWLINE);
  }

  @Test
  void unknownVerbIsAUsageErrorWithSuggestions() {
    CliRunner.Result result = CliRunner.run("rout", "x");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo("jumpgate: unknown verb 'rout', one of: route; did you mean route?" + NEWLINE);
  }

  @Test
  void everyVerbHasHelp() {
    for (String verb : JumpgateCli.newCommandLine().getSubcommands().keySet()) {
      CliRunner.Result result = CliRunner.run(verb, "--help");

      assertThat(result.exitCode()).as(verb).isZero();
      assertThat(result.out()).as(verb).startsWith("Usage: jumpgate " + verb);
    }
  }
}
