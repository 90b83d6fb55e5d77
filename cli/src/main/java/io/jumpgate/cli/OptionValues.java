package io.jumpgate.cli;

import java.math.BigInteger;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Parses and checks option values with error messages that name the option: {@code --shards must be
 * between 1 and 2147483647, was 0}. A bad value throws {@link ParameterException}, which the CLI
 * reports as a usage error (exit code 2).
 *
 * <p>Stateless and thread-safe.
 */
final class OptionValues {

  private OptionValues() {}

  /**
   * An int option's value, checked to be in {@code [minimum, maximum]}.
   *
   * @param spec the command the option belongs to, for the error
   * @param option the option's name as the user types it, e.g. {@code --shards}
   * @param value the value as given (decimal, optional sign)
   * @throws ParameterException if the value is not a decimal integer or is out of range
   */
  static int intInRange(CommandSpec spec, String option, String value, int minimum, int maximum) {
    BigInteger number;
    try {
      number = new BigInteger(value);
    } catch (NumberFormatException e) {
      throw new ParameterException(
          spec.commandLine(),
          String.format(
              "%s must be an integer between %d and %d, was '%s'",
              option, minimum, maximum, value));
    }
    if (number.compareTo(BigInteger.valueOf(minimum)) < 0
        || number.compareTo(BigInteger.valueOf(maximum)) > 0) {
      throw new ParameterException(
          spec.commandLine(),
          String.format("%s must be between %d and %d, was %s", option, minimum, maximum, value));
    }
    return number.intValueExact();
  }
}
