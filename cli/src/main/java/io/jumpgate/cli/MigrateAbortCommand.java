package io.jumpgate.cli;

import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.io.PrintWriter;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate migrate abort ID}: stops a migration whose mover is gone: lifts every freeze with
 * nothing moved, removes the targets' partial copies, deletes the record and releases the lock.
 * Shards already cut over stay on their new leader (their data moved with them). Refused, naming
 * the owner, while another mover holds the lock.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "abort",
    description =
        "Aborts a migration from its record in etcd: shards not yet cut over stay where they are.",
    footer = {
      "",
      "Examples:",
      "  jumpgate migrate abort m-20261124-1 --etcd http://127.0.0.1:2379 --cluster prod"
    })
public final class MigrateAbortCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private RedisCredentialsOptions redisCredentials;

  @Parameters(index = "0", paramLabel = "ID", description = "The migration id (migrate status).")
  private String migrationId;

  @Override
  public Integer call() {
    EtcdTopologyOptions options = etcd.toOptions(spec, JumpgateCli.environment(spec));
    SortedSet<Integer> kept;
    MoverOptions moverOptions =
        MoverOptions.builder().serverAddresses(redisCredentials.serverAddresses()).build();
    try (Mover mover = Mover.create(options, moverOptions)) {
      kept = mover.abort(migrationId);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "migration "
            + migrationId
            + " aborted: "
            + (kept.isEmpty()
                ? "no shard had been cut over"
                : kept.size() + " shard(s) stay cut over: " + kept));
    return ExitCodes.OK;
  }
}
