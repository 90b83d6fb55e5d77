package io.jumpgate.cli.demo;

import io.jumpgate.cli.JumpgateCli;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs {@code jumpgate demo ARGS} from the test class path, with the verb added to the CLI when
 * {@link JumpgateCli} does not list it yet: {@code java -cp ... io.jumpgate.cli.demo.DemoMain
 * --duration 10s}. For trying the demo by hand.
 */
final class DemoMain {

  private DemoMain() {}

  public static void main(String[] arguments) {
    CommandLine jumpgate = JumpgateCli.newCommandLine();
    if (!jumpgate.getSubcommands().containsKey("demo")) {
      jumpgate.addSubcommand("demo", new DemoCommand());
    }
    List<String> all = new ArrayList<>(List.of("demo"));
    all.addAll(List.of(arguments));
    System.exit(jumpgate.execute(all.toArray(String[]::new)));
  }
}
