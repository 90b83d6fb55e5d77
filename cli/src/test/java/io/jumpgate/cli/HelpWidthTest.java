package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The {@code --help} of every verb keeps its JSON examples whole: no line is wider than the usage
 * width (so picocli never had to wrap one), and no line ends inside a quoted JSON string.
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

  @Test
  void noHelpLineIsWrappedOrBreaksInsideAJsonString() {
    CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
    List<String> problems = new ArrayList<>();
    int verbs = 0;
    for (CommandLine command : allCommands(jumpgate)) {
      verbs++;
      int width = command.getUsageHelpWidth();
      String name = command.getCommandSpec().qualifiedName();
      for (String line : command.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\\R")) {
        if (line.length() > width) {
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
