package io.jumpgate.cli;

import io.jumpgate.cli.demo.DemoCommand;
import java.util.Map;
import java.util.Objects;
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
 * <p>The environment variables that verbs read ({@code JUMPGATE_ETCD}, {@code JUMPGATE_CLUSTER},
 * {@code JUMPGATE_ETCD_USER}, {@code JUMPGATE_ETCD_PASSWORD}, {@code JUMPGATE_DEBUG}) come from the
 * map given to {@link #newCommandLine(Map)}, so tests can set them; {@link #newCommandLine()} uses
 * the process environment.
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
    subcommands = {
      RouteCommand.class,
      TopologyCommand.class,
      ClientsCommand.class,
      InitCommand.class,
      AddNodeCommand.class,
      RemoveNodeCommand.class,
      MoveShardCommand.class,
      FailoverCommand.class,
      RebalanceCommand.class,
      MigrateCommand.class,
      DemoCommand.class,
      ExecCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:the operation failed",
      "2:usage error (bad option, argument or verb)"
    })
public final class JumpgateCli implements Runnable {

  /** Set to print the stack trace of a failure after its one-line message. */
  static final String DEBUG_VARIABLE = "JUMPGATE_DEBUG";

  private final Map<String, String> environment;

  @Spec private CommandSpec spec;

  private JumpgateCli(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /** Runs the CLI and exits the JVM with its exit code. */
  public static void main(String[] arguments) {
    CliLogging.configure();
    int status = newCommandLine().execute(arguments);
    System.out.flush();
    System.err.flush();
    VerbCompletion.printed();
    System.exit(status);
  }

  /**
   * A ready-to-execute {@code jumpgate} command line, with the CLI's error handling: usage errors
   * exit with 2, failures with 1, each with a one-line message on stderr. Output goes to {@link
   * System#out} and {@link System#err} unless changed with {@link CommandLine#setOut} and {@link
   * CommandLine#setErr}.
   *
   * <p>Each command's footer (its examples) is printed as written, never wrapped ({@link
   * UnwrappedFooter}). Arguments that start with {@code @} are taken literally (picocli's
   * {@code @file} expansion is off), since a key may start with {@code @}.
   */
  public static CommandLine newCommandLine() {
    return newCommandLine(System.getenv());
  }

  /**
   * Like {@link #newCommandLine()}, with {@code environment} in place of the process environment:
   * the verbs read their {@code JUMPGATE_*} variables from it.
   */
  public static CommandLine newCommandLine(Map<String, String> environment) {
    Objects.requireNonNull(environment, "environment");
    ErrorReporter errorReporter =
        new ErrorReporter(environment.get(DEBUG_VARIABLE) != null, environment);
    CommandLine commandLine =
        new CommandLine(new JumpgateCli(environment))
            .setExpandAtFiles(false)
            .setParameterExceptionHandler(errorReporter)
            .setExecutionExceptionHandler(errorReporter);
    UnwrappedFooter.install(commandLine);
    return commandLine;
  }

  /**
   * The environment of the command line that {@code spec} belongs to: the map given to {@link
   * #newCommandLine(Map)}, or the process environment for a command not run under {@code jumpgate}.
   */
  static Map<String, String> environment(CommandSpec spec) {
    Object root = spec.root().userObject();
    return root instanceof JumpgateCli cli ? cli.environment : System.getenv();
  }

  /** Without a verb: a usage error. */
  @Override
  public void run() {
    throw missingVerb(spec);
  }

  /**
   * The usage error of a command that needs a verb and got none: {@code missing verb, one of:
   * route, topology; see 'jumpgate --help'}.
   */
  static ParameterException missingVerb(CommandSpec spec) {
    return new ParameterException(
        spec.commandLine(),
        "missing verb, one of: "
            + String.join(", ", spec.subcommands().keySet())
            + "; see '"
            + spec.qualifiedName()
            + " --help'");
  }
}
