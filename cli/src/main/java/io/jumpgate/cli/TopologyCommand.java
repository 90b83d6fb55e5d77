package io.jumpgate.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate topology}: the verbs that read a cluster's shard map, from etcd or from a
 * topology file. Without a verb: a usage error.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "topology",
    description = "Reads a cluster's shard map from etcd or from a topology file.",
    subcommands = {
      TopologyShowCommand.class,
      TopologyWatchCommand.class,
      TopologyValidateCommand.class,
      TopologyExportCommand.class,
      TopologyDiffCommand.class
    },
    footer = {
      "",
      "Every verb reads the map from --etcd URL[,URL...] (or JUMPGATE_ETCD) and --cluster NAME",
      "(or JUMPGATE_CLUSTER, default 'default'), or from --topology-file FILE.",
      "",
      "Examples:",
      "  jumpgate topology show --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate topology watch --etcd http://127.0.0.1:2379",
      "  jumpgate topology diff saved.json etcd --etcd http://127.0.0.1:2379"
    })
public final class TopologyCommand implements Runnable {

  @Spec private CommandSpec spec;

  /** Without a verb: a usage error. */
  @Override
  public void run() {
    throw JumpgateCli.missingVerb(spec);
  }
}
