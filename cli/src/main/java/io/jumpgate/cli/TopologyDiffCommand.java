package io.jumpgate.cli;

import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.TopologyDiff;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate topology diff A B}: the differences between two shard maps, each a topology file,
 * {@code etcd} (the map in etcd now) or {@code etcd@REV} (the map in etcd at revision REV), in the
 * wording of {@code topology watch} ({@link TopologyDiff#lines()}).
 *
 * <p>Exit codes as {@code diff(1)}: 0 the maps are the same, 1 they differ, 2 trouble (a usage
 * error, or a map that cannot be read).
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "diff",
    description = {
      "Compares two shard maps and prints their differences, one per line.",
      "",
      "A and B are each a topology file (as written by 'topology export'), 'etcd' (the map in"
          + " etcd now, from --etcd and --cluster), or 'etcd@REV' (the map in etcd at revision"
          + " REV, as long as etcd has not compacted it). Write ./etcd for a file named etcd."
    },
    footer = {
      "",
      "Prints nothing when the maps are the same. Revisions are not compared, only content.",
      "",
      "Examples:",
      "  jumpgate topology diff before.json after.json",
      "  jumpgate topology diff saved.json etcd --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate topology diff etcd@1200 etcd --etcd http://127.0.0.1:2379 --cluster prod"
    },
    exitCodeList = {
      "0:the maps are the same",
      "1:the maps differ",
      "2:trouble: usage error, or a map cannot be read"
    })
public final class TopologyDiffCommand implements Callable<Integer>, ErrorReporter.FailureExitCode {

  private static final Pattern ETCD_AT = Pattern.compile("etcd@(.*)");

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Option(names = "--json", description = "Print the differences as one JSON object.")
  private boolean json;

  @Parameters(index = "0", paramLabel = "A", description = "The first map: FILE, etcd or etcd@REV.")
  private String first;

  @Parameters(
      index = "1",
      paramLabel = "B",
      description = "The second map: FILE, etcd or etcd@REV.")
  private String second;

  /**
   * A map to compare, parsed from A or B.
   *
   * @param name {@code A} or {@code B}
   * @param file the topology file, or null for etcd
   * @param revision for etcd: the revision, or 0 for the current map
   */
  private record Operand(String name, Path file, long revision) {

    boolean isEtcd() {
      return file == null;
    }
  }

  /** A loaded map and how to name it. */
  private record Loaded(String label, TopologySnapshot snapshot) {}

  @Override
  public int failureExitCode() {
    return ExitCodes.USAGE;
  }

  @Override
  public Integer call() {
    Operand a = parse("A", first);
    Operand b = parse("B", second);
    Duration timeout = etcd.timeout(spec);
    TopologyInput etcdInput = null;
    if (a.isEtcd() || b.isEtcd()) {
      etcdInput = TopologyInput.forEtcd(spec, etcd);
    } else {
      List<String> unused = etcd.givenEtcdOnlyOptions();
      if (etcd.endpointsGiven() || etcd.clusterGiven() || !unused.isEmpty()) {
        String option =
            etcd.endpointsGiven() ? "--etcd" : etcd.clusterGiven() ? "--cluster" : unused.get(0);
        throw new ParameterException(
            spec.commandLine(), option + " is used only when A or B is etcd or etcd@REV");
      }
    }
    Loaded left = load(a, etcdInput, timeout);
    Loaded right = load(b, etcdInput, timeout);
    TopologyDiff diff = TopologyDiff.between(left.snapshot(), right.snapshot());
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put("a", left.label());
      labels.put("b", right.label());
      JsonOutput.writeLine(out, generator -> SnapshotJson.writeDiff(generator, labels, diff));
    } else if (!diff.isEmpty()) {
      out.println("--- A: " + left.label());
      out.println("+++ B: " + right.label());
      for (String line : diff.lines()) {
        out.println(KeyText.printable(line));
      }
      out.flush();
    }
    return diff.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  private Operand parse(String name, String text) {
    if (text.equals("etcd")) {
      return new Operand(name, null, 0);
    }
    Matcher at = ETCD_AT.matcher(text);
    if (at.matches()) {
      long revision;
      try {
        revision = Long.parseLong(at.group(1));
      } catch (NumberFormatException e) {
        revision = 0;
      }
      if (revision < 1) {
        throw new ParameterException(
            spec.commandLine(),
            name + " must be etcd@REV with REV an etcd revision of at least 1, was '" + text + "'");
      }
      return new Operand(name, null, revision);
    }
    Path file = Path.of(text);
    EtcdOptions.existingFile(spec, name, file);
    return new Operand(name, file, 0);
  }

  private Loaded load(Operand operand, TopologyInput etcdInput, Duration timeout) {
    if (operand.file() != null) {
      TopologyInput input =
          TopologyInput.forFile(spec, operand.name(), operand.file(), null, timeout);
      TopologySnapshot snapshot = input.load();
      return new Loaded(
          "file " + operand.file() + " (" + TopologyText.identify(snapshot) + ")", snapshot);
    }
    TopologySnapshot snapshot =
        operand.revision() > 0
            ? EtcdHistory.read(etcdInput.etcdOptions(), operand.revision(), timeout)
            : etcdInput.load();
    return new Loaded(
        "etcd at "
            + etcdInput.etcdOptions().endpointList()
            + " ("
            + TopologyText.identify(snapshot)
            + ")",
        snapshot);
  }
}
