package io.jumpgate.bench.timing;

import java.nio.file.Path;

/**
 * The command line shared by the timing runs: {@code --results DIR [--quick]}.
 *
 * <p>Immutable; thread-safe. There is no default results dir: it must be given.
 *
 * @param results the directory the run writes its JSON file into (created when missing)
 * @param quick whether to run the short variant (fewer changes or repetitions)
 */
public record TimingArguments(Path results, boolean quick) {

  /**
   * Parses {@code --results DIR [--quick]}.
   *
   * @param program the program's name, for the usage message
   * @throws IllegalArgumentException naming the unknown option, or saying that {@code --results} or
   *     its value is missing
   */
  public static TimingArguments parse(String program, String... args) {
    Path results = null;
    boolean quick = false;
    for (int index = 0; index < args.length; index++) {
      String arg = args[index];
      switch (arg) {
        case "--quick" -> quick = true;
        case "--results" -> {
          if (index + 1 >= args.length || args[index + 1].startsWith("--")) {
            throw new IllegalArgumentException(
                program + ": --results needs a directory; " + usage(program));
          }
          results = Path.of(args[++index]);
        }
        default ->
            throw new IllegalArgumentException(
                program + ": unknown argument '" + arg + "'; " + usage(program));
      }
    }
    if (results == null) {
      throw new IllegalArgumentException(program + ": --results is required; " + usage(program));
    }
    return new TimingArguments(results, quick);
  }

  private static String usage(String program) {
    return "usage: " + program + " --results DIR [--quick]";
  }
}
