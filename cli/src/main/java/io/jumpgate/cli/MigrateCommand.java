package io.jumpgate.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate migrate}: the live migrations of a cluster (their records in etcd): show them,
 * finish one whose mover died, or abort one. Without a verb: a usage error.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "migrate",
    description =
        "Shows, resumes or aborts the live shard migrations recorded in etcd"
            + " (see docs/migration.md).",
    subcommands = {
      MigrateStatusCommand.class,
      MigrateResumeCommand.class,
      MigrateAbortCommand.class
    },
    footer = {
      "",
      "Examples:",
      "  jumpgate migrate status --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate migrate resume m-20261124-1 --etcd http://127.0.0.1:2379",
      "  jumpgate migrate abort m-20261124-1 --etcd http://127.0.0.1:2379"
    })
public final class MigrateCommand implements Runnable {

  @Spec private CommandSpec spec;

  /** Without a verb: a usage error. */
  @Override
  public void run() {
    throw JumpgateCli.missingVerb(spec);
  }
}
