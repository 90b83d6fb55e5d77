package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The {@code --help} of every verb keeps its examples whole: every footer line is printed as
 * written at any usage width, no other line is wider than the usage width, and no line ends inside
 * a quoted JSON string.
 */
class HelpWidthTest {

  /** Every command of the tree, the root first. */
  private static List<CommandLine> allCommands(CommandLine root) {
    List<CommandLine> all = new ArrayList<>();
    all.add(root);
    for (CommandLine sub : root.getSubcommands().values()) {
      for (CommandLine command : allCommands(sub)) {
        if (!all.contains(command)) {
          all.add(command);
        }
      }
    }
    return all;
  }

  /**
   * Every line of every footer (the examples) appears whole in {@code --help}, as written in the
   * source, at the width picocli uses when stdout is not a terminal (80, unless {@code
   * picocli.usage.width} says otherwise), at its narrowest (55) and at a wide terminal's.
   */
  @Test
  void everyExampleLineIsPrintedWholeAtAnyWidth() {
    List<String> problems = new ArrayList<>();
    int exampleLines = 0;
    for (Integer width : Arrays.asList(null, 55, 80, 200)) {
      CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
      if (width != null) {
        jumpgate.setUsageHelpWidth(width);
      }
      for (CommandLine command : allCommands(jumpgate)) {
        String name = command.getCommandSpec().qualifiedName() + " at width " + width;
        List<String> printed =
            Arrays.asList(command.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\\R"));
        for (String line : command.getCommandSpec().usageMessage().footer()) {
          if (line.isBlank() || !line.startsWith(" ")) {
            continue; // prose, wrapped between words
          }
          exampleLines++;
          if (!printed.contains(line)) {
            problems.add(name + ": not printed whole: " + line);
          }
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(exampleLines).isGreaterThan(4 * 40);
  }

  @Test
  void footerProseIsWrappedBetweenWordsOnly() {
    StringBuilder text = new StringBuilder();
    UnwrappedFooter.appendWrapped(text, "aaa bbb {\"x\":[1,2]} cccc", 10);

    assertThat(text.toString().split("\\R")).containsExactly("aaa bbb", "{\"x\":[1,2]}", "cccc");
  }

  @Test
  void theUsageWidthWithoutATerminalIs80() {
    assertThat(JumpgateCli.newCommandLine(Map.of()).getUsageHelpWidth()).isEqualTo(80);
  }

  @Test
  void noHelpLineIsWrappedOrBreaksInsideAJsonString() {
    CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
    List<String> problems = new ArrayList<>();
    int verbs = 0;
    for (CommandLine command : allCommands(jumpgate)) {
      verbs++;
      int width = command.getUsageHelpWidth();
      String name = command.getCommandSpec().qualifiedName();
      List<String> footer = Arrays.asList(command.getCommandSpec().usageMessage().footer());
      for (String line : command.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\\R")) {
        // an example command line may be wider: it is printed whole (see above)
        boolean example = footer.contains(line) && line.startsWith(" ");
        if (line.length() > width && !example) {
          problems.add(name + ": wider than " + width + ": " + line);
        }
        // an escaped quote (\" in prose about escapes) opens no string
        if (line.replace("\\\"", "").chars().filter(c -> c == '"').count() % 2 != 0) {
          problems.add(name + ": ends inside a quoted string: " + line);
        }
      }
    }
    assertThat(verbs).isGreaterThan(15);
    assertThat(problems).isEmpty();
  }

  @Test
  void theJsonExamplesAreInTheHelp() {
    CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
    String clients =
        jumpgate.getSubcommands().get("clients").getUsageMessage(CommandLine.Help.Ansi.OFF);
    String show =
        jumpgate
            .getSubcommands()
            .get("topology")
            .getSubcommands()
            .get("show")
            .getUsageMessage(CommandLine.Help.Ansi.OFF);

    assertThat(clients).contains("\"clients\":[{\"id\":..,");
    assertThat(show).contains("\"assignments\":[{\"shard\":0,");
  }
}
