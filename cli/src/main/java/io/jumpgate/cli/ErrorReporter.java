package io.jumpgate.cli;

import io.jumpgate.spi.JumpgateException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every error of a verb into one line on stderr and an exit code: {@code jumpgate route:
 * --shards must be between 1 and 2147483647, was 0}.
 *
 * <ul>
 *   <li>A bad command line ({@link ParameterException}, also when a verb throws it while checking
 *       its arguments) exits with {@link ExitCodes#USAGE}.
 *   <li>A failure that the CLI expects ({@link JumpgateException}, I/O errors) exits with {@link
 *       ExitCodes#FAILURE}, with the exception's message.
 *   <li>Any other exception is a bug: it also exits with {@link ExitCodes#FAILURE}, with the
 *       exception's type and message.
 * </ul>
 *
 * <p>A verb whose failures mean something else than {@link ExitCodes#FAILURE} ({@code topology
 * diff}, where 1 means "different") implements {@link FailureExitCode}.
 *
 * <p>An etcd password never reaches stderr: an unknown option is named without the arguments that
 * follow it, a stray argument or unknown verb is shown only when it is a plain lower-case word
 * (else as {@code '***'}: it may be a password whose option was left out), and every message is
 * scrubbed of the values given to {@code --password} and of {@code JUMPGATE_ETCD_PASSWORD}
 * (replaced by {@code ***}; a value shorter than {@value #MIN_SCRUBBED_LENGTH} characters is not
 * searched for, it would turn every message to noise).
 *
 * <p>No stack traces unless built with {@code printStackTraces} ({@link JumpgateCli} does when the
 * environment variable {@code JUMPGATE_DEBUG} is set). Immutable; the handlers write to the command
 * line's {@link CommandLine#getErr() err} writer, so use it from the thread that runs the command.
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {

  /** A verb whose failures exit with another code than {@link ExitCodes#FAILURE}. */
  interface FailureExitCode {
    /** The exit code of a failure of this verb. */
    int failureExitCode();
  }

  private static final String REDACTED = "***";

  /** The shortest password that messages are scrubbed of. */
  static final int MIN_SCRUBBED_LENGTH = 4;

  private final boolean printStackTraces;
  private final List<String> environmentPasswords;

  /** Options whose value is a password: etcd's and Redis's (exec). */
  private static final List<String> PASSWORD_OPTIONS =
      List.of(EtcdOptions.PASSWORD_OPTION, "--redis-password");

  /**
   * @param printStackTraces whether to print the stack trace of a failure after its message
   * @param environment the CLI's environment, to know the password to keep out of messages
   */
  ErrorReporter(boolean printStackTraces, Map<String, String> environment) {
    this.printStackTraces = printStackTraces;
    List<String> passwords = new ArrayList<>();
    for (String variable : List.of(EtcdOptions.PASSWORD_VARIABLE, "JUMPGATE_REDIS_PASSWORD")) {
      String value = environment.get(variable);
      if (value != null && !value.isEmpty()) {
        passwords.add(value);
      }
    }
    this.environmentPasswords = List.copyOf(passwords);
  }

  @Override
  public int handleParseException(ParameterException exception, String[] arguments) {
    report(exception.getCommandLine(), usageMessage(exception), secrets(arguments));
    return ExitCodes.USAGE;
  }

  /**
   * Picocli's message, except for an unknown verb, which picocli calls an unmatched argument, and
   * for an unknown option that left a required parameter missing ({@code route -x}), which picocli
   * reports as the missing parameter. Suggestions for a mistyped verb or option are added.
   */
  private static String usageMessage(ParameterException exception) {
    String message = Objects.toString(exception.getMessage(), exception.toString());
    ParseResult parsed = exception.getCommandLine().getParseResult();
    if (exception instanceof MissingParameterException
        && parsed != null
        && !parsed.unmatched().isEmpty()
        && parsed.unmatched().get(0).startsWith("-")) {
      return "Unknown option: '"
          + parsed.unmatched().get(0)
          + "' (put -- before arguments that start with '-')";
    }
    if (!(exception instanceof UnmatchedArgumentException)) {
      return message;
    }
    UnmatchedArgumentException unmatched = (UnmatchedArgumentException) exception;
    if (unmatched.isUnknownOption() && !unmatched.getUnmatched().isEmpty()) {
      // Only the option's name: what follows it may be a value, even a password.
      String option = unmatched.getUnmatched().get(0);
      int equals = option.indexOf('=');
      message = "Unknown option: '" + (equals < 0 ? option : option.substring(0, equals)) + "'";
    }
    CommandSpec command = exception.getCommandLine().getCommandSpec();
    boolean unknownVerb =
        !unmatched.isUnknownOption()
            && !command.subcommands().isEmpty()
            && command.positionalParameters().isEmpty()
            && !unmatched.getUnmatched().isEmpty();
    if (unknownVerb) {
      message =
          "unknown verb '"
              + unmatched.getUnmatched().get(0)
              + "', one of: "
              + String.join(", ", command.subcommands().keySet());
    }
    // A stray argument may be a password whose option was left out (--user app s3cret): only a
    // plain word (a mistyped verb, 'extra') is shown. Unknown options are named above.
    for (String value : unmatched.getUnmatched()) {
      if (!value.startsWith("-") && !PLAIN_WORD.matcher(value).matches()) {
        message = message.replace("'" + value + "'", "'" + REDACTED + "'");
      }
    }
    List<String> suggestions = unmatched.getSuggestions();
    return suggestions.isEmpty()
        ? message
        : message + "; did you mean " + String.join(" or ", suggestions) + "?";
  }

  /** What a stray argument must look like to be shown: lower-case letters and '-', short. */
  private static final Pattern PLAIN_WORD = Pattern.compile("[a-z][a-z-]{0,23}");

  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, ParseResult parseResult) {
    List<String> secrets = secrets(parseResult.originalArgs());
    report(commandLine, failureMessage(exception), secrets);
    if (printStackTraces) {
      // Scrubbed too: a cause's message is not ours to vouch for.
      StringWriter trace = new StringWriter();
      exception.printStackTrace(new PrintWriter(trace, true));
      String text = trace.toString();
      for (String secret : secrets) {
        text = text.replace(secret, REDACTED);
      }
      commandLine.getErr().print(text);
      commandLine.getErr().flush();
    }
    return commandLine.getCommand() instanceof FailureExitCode verb
        ? verb.failureExitCode()
        : ExitCodes.FAILURE;
  }

  /**
   * The passwords of this invocation: {@code --password} and {@code --redis-password} values and
   * the environment's.
   */
  private List<String> secrets(String[] arguments) {
    return secrets(arguments == null ? List.of() : Arrays.asList(arguments));
  }

  private List<String> secrets(List<String> arguments) {
    List<String> secrets = new ArrayList<>(environmentPasswords);
    for (String option : PASSWORD_OPTIONS) {
      for (int index = 0; index < arguments.size(); index++) {
        String argument = arguments.get(index);
        if (argument.equals(option) && index + 1 < arguments.size()) {
          secrets.add(arguments.get(index + 1));
        } else if (argument.startsWith(option + "=")) {
          secrets.add(argument.substring(option.length() + 1));
        }
      }
    }
    secrets.removeIf(secret -> secret.length() < MIN_SCRUBBED_LENGTH);
    // Longest first, so that a password containing another one is replaced whole.
    secrets.sort((a, b) -> Integer.compare(b.length(), a.length()));
    return secrets;
  }

  private String failureMessage(Exception exception) {
    boolean expected =
        exception instanceof JumpgateException
            || exception instanceof IOException
            || exception instanceof UncheckedIOException;
    if (expected && exception.getMessage() != null) {
      return exception.getMessage();
    }
    String hint = printStackTraces ? "" : " (set JUMPGATE_DEBUG=1 to print the stack trace)";
    return "unexpected error: " + exception + hint;
  }

  private static void report(CommandLine commandLine, String message, List<String> secrets) {
    String line = oneLine(message);
    for (String secret : secrets) {
      line = line.replace(secret, REDACTED);
    }
    PrintWriter err = commandLine.getErr();
    err.println(commandLine.getCommandSpec().qualifiedName() + ": " + line);
    err.flush();
  }

  /** Joins the lines of a message, so that every error stays one line. */
  private static String oneLine(String message) {
    return message.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
