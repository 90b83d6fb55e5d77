package io.jumpgate.cli;

import io.jumpgate.spi.TopologySnapshot;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate topology validate}: loads the map and checks that it has no invalid entry and no
 * unavailable shard. Prints one line per problem (runs of shards unavailable for the same reason on
 * one line) and a verdict; exits 0 when the map is valid, 1 when it has a problem or cannot be
 * read.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "validate",
    description = {
      "Checks the shard map: exits 0 when every entry is valid and every shard has a leader,"
          + " else prints each problem and exits 1."
    },
    footer = {
      "",
      "Examples:",
      "  jumpgate topology validate --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate topology validate --topology-file saved.json && echo ok"
    },
    exitCodeList = {
      "0:the map is valid",
      "1:the map has an invalid entry or an unavailable shard, or it cannot be read",
      "2:usage error (bad option or argument)"
    })
public final class TopologyValidateCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private TopologyFileOption file;

  @Override
  public Integer call() {
    TopologySnapshot snapshot = TopologyInput.resolve(spec, etcd, file).load();
    PrintWriter out = spec.commandLine().getOut();
    List<String> problems = TopologyText.problems(snapshot);
    problems.forEach(out::println);
    if (problems.isEmpty()) {
      out.println(
          TopologyText.identify(snapshot)
              + ": valid ("
              + TopologyText.plural(snapshot.shardCount(), "shard", "shards")
              + ", "
              + TopologyText.plural(snapshot.nodes().size(), "node", "nodes")
              + ")");
    } else {
      out.println(
          TopologyText.identify(snapshot)
              + ": not valid: "
              + TopologyText.plural(
                  snapshot.invalidEntries().size(), "invalid entry", "invalid entries")
              + ", "
              + TopologyText.plural(
                  snapshot.unavailableShardCount(), "unavailable shard", "unavailable shards"));
    }
    out.flush();
    return problems.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}
