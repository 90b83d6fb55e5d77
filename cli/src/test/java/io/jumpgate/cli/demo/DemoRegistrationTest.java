package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.cli.JumpgateCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/** The verb fits under {@code jumpgate}, listed in {@code subcommands} or added at run time. */
class DemoRegistrationTest {

  /** Declared like {@link JumpgateCli}: inherited standard help options, the verb in its list. */
  @Command(
      name = "jumpgate",
      scope = ScopeType.INHERIT,
      mixinStandardHelpOptions = true,
      subcommands = {DemoCommand.class})
  static final class Root implements Runnable {
    @Override
    public void run() {}
  }

  @Test
  void listedInSubcommandsItShowsItsHelp() {
    StringWriter out = new StringWriter();
    CommandLine root = new CommandLine(new Root());
    root.setOut(new PrintWriter(out, true));

    assertThat(root.execute("demo", "--help")).isZero();
    assertThat(out.toString()).contains("Usage: jumpgate demo", "--duration=DURATION", "--keep");
  }

  @Test
  void addedToTheCliItReportsUsageErrorsTheCliWay() {
    StringWriter err = new StringWriter();
    CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
    if (!jumpgate.getSubcommands().containsKey("demo")) {
      jumpgate.addSubcommand("demo", new DemoCommand());
    }
    jumpgate.setErr(new PrintWriter(err, true));

    assertThat(jumpgate.execute("demo", "--duration", "0s")).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            "jumpgate demo: --duration must be between 3s and 24h, was '0s'"
                + System.lineSeparator());
  }

  @Test
  void aMissingBinaryFailsWithOneLineNamingIt() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine jumpgate = JumpgateCli.newCommandLine(Map.of());
    CommandLine demo = new CommandLine(new DemoCommand(Map.of("PATH", "/nonexistent")));
    jumpgate.addSubcommand("demo-without-binaries", demo);
    jumpgate.setOut(new PrintWriter(out, true));
    jumpgate.setErr(new PrintWriter(err, true));

    assertThat(jumpgate.execute("demo-without-binaries")).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .startsWith("jumpgate demo: etcd was not found on the PATH (/nonexistent)")
        .contains("sudo apt-get install -y etcd-server", "or set JUMPGATE_ETCD_BIN=/path/to/etcd")
        .contains("(bin/jumpgate demo installs it when run as root)")
        .hasLineCount(1);
  }
}
