package io.jumpgate.cli;

import io.jumpgate.spi.JumpgateException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
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
 * <p>No stack traces unless built with {@code printStackTraces} ({@link JumpgateCli} does when the
 * environment variable {@code JUMPGATE_DEBUG} is set). Immutable; the handlers write to the command
 * line's {@link CommandLine#getErr() err} writer, so use it from the thread that runs the command.
 */
final class ErrorReporter implements IParameterExceptionHandler, IExecutionExceptionHandler {

  private final boolean printStackTraces;

  /**
   * @param printStackTraces whether to print the stack trace of a failure after its message
   */
  ErrorReporter(boolean printStackTraces) {
    this.printStackTraces = printStackTraces;
  }

  @Override
  public int handleParseException(ParameterException exception, String[] arguments) {
    report(exception.getCommandLine(), usageMessage(exception));
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
    List<String> suggestions = unmatched.getSuggestions();
    return suggestions.isEmpty()
        ? message
        : message + "; did you mean " + String.join(" or ", suggestions) + "?";
  }

  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, ParseResult parseResult) {
    report(commandLine, failureMessage(exception));
    if (printStackTraces) {
      exception.printStackTrace(commandLine.getErr());
      commandLine.getErr().flush();
    }
    return ExitCodes.FAILURE;
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

  private static void report(CommandLine commandLine, String message) {
    PrintWriter err = commandLine.getErr();
    err.println(commandLine.getCommandSpec().qualifiedName() + ": " + oneLine(message));
    err.flush();
  }

  /** Joins the lines of a message, so that every error stays one line. */
  private static String oneLine(String message) {
    return message.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
