package io.jumpgate.cli;

import picocli.CommandLine;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Prints each command's footer with its examples whole: an indented line (an example: a command
 * line, a {@code jq} filter, a JSON document, a line of output) is printed as written in the
 * source, never wrapped; a line of prose (not indented) is wrapped at the usage width between words
 * only. Picocli wraps the whole footer at the usage width (80 columns when stdout is not a
 * terminal, or {@code picocli.usage.width}) in the middle of a token, which split examples ({@code
 * jq '.assignments} / {@code [5]'}). An example wider than the terminal is left for the terminal to
 * fold, whole and still copyable.
 *
 * <p>Footer lines are taken literally: no {@code %} format specifiers and no {@code @|..|@} markup.
 *
 * <p>Stateless and thread-safe.
 */
final class UnwrappedFooter implements IHelpSectionRenderer {

  private static final UnwrappedFooter INSTANCE = new UnwrappedFooter();

  private UnwrappedFooter() {}

  /** Installs the unwrapped footer on {@code root} and every command below it. */
  static void install(CommandLine root) {
    root.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER, INSTANCE);
    for (CommandLine sub : root.getSubcommands().values()) {
      install(sub);
    }
  }

  @Override
  public String render(CommandLine.Help help) {
    int width = help.commandSpec().usageMessage().width();
    StringBuilder text = new StringBuilder();
    for (String line : help.commandSpec().usageMessage().footer()) {
      if (line.isEmpty() || Character.isWhitespace(line.charAt(0))) {
        text.append(line).append(System.lineSeparator());
      } else {
        appendWrapped(text, line, width);
      }
    }
    return text.toString();
  }

  /** Appends {@code prose} in lines of at most {@code width}, broken at spaces only. */
  static void appendWrapped(StringBuilder text, String prose, int width) {
    StringBuilder line = new StringBuilder();
    for (String word : prose.split(" +")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        text.append(line).append(System.lineSeparator());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    text.append(line).append(System.lineSeparator());
  }
}
