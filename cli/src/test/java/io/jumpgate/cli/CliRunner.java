package io.jumpgate.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/** Runs the CLI in-process with captured stdout and stderr. */
final class CliRunner {

  /** What one run printed and returned. */
  record Result(int exitCode, String out, String err) {}

  private CliRunner() {}

  /** Runs {@code jumpgate} with these arguments and an empty environment. */
  static Result run(String... arguments) {
    return run(Map.of(), arguments);
  }

  /** Runs {@code jumpgate} with these arguments and this environment. */
  static Result run(Map<String, String> environment, String... arguments) {
    return run(JumpgateCli.newCommandLine(environment), arguments);
  }

  /**
   * Runs a command line, as built by {@link JumpgateCli#newCommandLine()}, with these arguments.
   */
  static Result run(CommandLine commandLine, String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(arguments);
    return new Result(exitCode, out.toString(), err.toString());
  }
}
