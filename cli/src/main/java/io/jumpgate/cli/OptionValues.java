package io.jumpgate.cli;

import java.math.BigInteger;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /** One or more of a number and a unit: {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h30m}. */
  private static final Pattern DURATION = Pattern.compile("(?:[0-9]{1,9}(?:ms|s|m|h))+");

  private static final Pattern DURATION_PART = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  private OptionValues() {}

  /**
   * A duration option's value: numbers with units ({@code 500ms}, {@code 5s}, {@code 2m}, {@code
   * 1h}, combined as in {@code 1m30s}) or ISO-8601 ({@code PT5S}), checked to be positive.
   *
   * @param spec the command the option belongs to, for the error
   * @param option the option's name as the user types it, e.g. {@code --timeout}
   * @param value the value as given
   * @throws ParameterException if the value is not a positive duration
   */
  static Duration positiveDuration(CommandSpec spec, String option, String value) {
    Duration duration = parseDuration(value);
    if (duration == null) {
      throw new ParameterException(
          spec.commandLine(),
          String.format(
              "%s must be a duration such as 500ms, 5s, 2m or 1h30m, was '%s'", option, value));
    }
    if (duration.isZero() || duration.isNegative()) {
      throw new ParameterException(
          spec.commandLine(), String.format("%s must be positive, was '%s'", option, value));
    }
    return duration;
  }

  private static Duration parseDuration(String value) {
    String text = value.strip();
    if (text.length() > 1 && (text.charAt(0) == 'P' || text.charAt(0) == 'p')) {
      try {
        return Duration.parse(text);
      } catch (RuntimeException e) {
        return null;
      }
    }
    if (!DURATION.matcher(text).matches()) {
      return null;
    }
    Duration total = Duration.ZERO;
    Matcher part = DURATION_PART.matcher(text);
    while (part.find()) {
      long amount = Long.parseLong(part.group(1));
      switch (part.group(2)) {
        case "ms":
          total = total.plusMillis(amount);
          break;
        case "s":
          total = total.plusSeconds(amount);
          break;
        case "m":
          total = total.plusMinutes(amount);
          break;
        default:
          total = total.plusHours(amount);
          break;
      }
    }
    return total;
  }

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
