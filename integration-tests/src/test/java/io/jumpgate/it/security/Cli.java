package io.jumpgate.it.security;

import io.jumpgate.cli.JumpgateCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/**
 * Runs the {@code jumpgate} CLI in-process on the calling thread, with a given environment, and
 * captures what it prints on stdout and stderr.
 */
final class Cli {

  /** What one run printed and returned. */
  record Result(int exitCode, String out, String err) {

    /** Both streams, for assertions that nothing printed holds a secret. */
    String all() {
      return out + err;
    }
  }

  private Cli() {}

  /** Runs {@code jumpgate <arguments>} with an empty environment. */
  static Result run(String... arguments) {
    return run(Map.of(), arguments);
  }

  /** Runs {@code jumpgate <arguments>} with {@code environment} as the CLI's environment. */
  static Result run(Map<String, String> environment, String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = JumpgateCli.newCommandLine(environment);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(arguments);
    Result result = new Result(exitCode, out.toString(), err.toString());
    // Only the verb: the arguments hold passwords (and a test may pass one as the verb).
    String verb = arguments.length > 0 && arguments[0].matches("[a-z-]+") ? arguments[0] : "?";
    System.out.println(
        "$ jumpgate "
            + verb
            + " ... (exit "
            + exitCode
            + ")\n"
            + abbreviated(result.out())
            + result.err());
    return result;
  }

  private static String abbreviated(String text) {
    return text.length() <= 2000 ? text : text.substring(0, 2000) + "...\n";
  }
}
