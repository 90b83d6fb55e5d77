package io.jumpgate.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code jumpgate} command: entry point of the CLI and the place where verbs are registered.
 *
 * <p>Each verb is one class, listed in {@code subcommands} below. The command's attributes are
 * inherited ({@code scope = INHERIT}): every verb gets {@code --help}, {@code --version} and the
 * exit code list in its help without declaring them. Exit codes are those of {@link ExitCodes};
 * every error is one line on stderr, prefixed with the command's name ({@link ErrorReporter}). Run
 * without a verb, {@code jumpgate} reports a usage error.
 *
 * <p>Threading: a command line built by {@link #newCommandLine()} and the command objects in it
 * hold the state of one invocation; use each from one thread, once. Building another one is cheap.
 */
@Command(
    name = "jumpgate",
    scope = ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    versionProvider = JumpgateVersion.class,
    description = "Jumpgate: client-side routing for sharded Redis-protocol clusters.",
    subcommands = {RouteCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:the operation failed",
      "2:usage error (bad option, argument or verb)"
    })
public final class JumpgateCli implements Runnable {

  @Spec private CommandSpec spec;

  /** Runs the CLI and exits the JVM with its exit code. */
  public static void main(String[] arguments) {
    System.exit(newCommandLine().execute(arguments));
  }

  /**
   * A ready-to-execute {@code jumpgate} command line, with the CLI's error handling: usage errors
   * exit with 2, failures with 1, each with a one-line message on stderr. Output goes to {@link
   * System#out} and {@link System#err} unless changed with {@link CommandLine#setOut} and {@link
   * CommandLine#setErr}.
   *
   * <p>Arguments that start with {@code @} are taken literally (picocli's {@code @file} expansion
   * is off), since a key may start with {@code @}.
   */
  public static CommandLine newCommandLine() {
    ErrorReporter errorReporter = new ErrorReporter(System.getenv("JUMPGATE_DEBUG") != null);
    return new CommandLine(new JumpgateCli())
        .setExpandAtFiles(false)
        .setParameterExceptionHandler(errorReporter)
        .setExecutionExceptionHandler(errorReporter);
  }

  /** Without a verb: a usage error. */
  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(),
        "missing verb, one of: "
            + String.join(", ", spec.subcommands().keySet())
            + "; see 'jumpgate --help'");
  }
}
