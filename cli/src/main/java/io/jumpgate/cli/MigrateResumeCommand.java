package io.jumpgate.cli;

import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate migrate resume ID}: finishes a migration whose mover died, from its record in
 * etcd: shards already cut over are only cleaned up, the others are copied again from the start and
 * cut over (see docs/migration.md). A migration recorded offline goes on offline; {@code --offline}
 * switches one recorded online to offline (for sources that refuse {@code CONFIG SET}). Refused,
 * naming the owner, while another mover holds the lock.
 *
 * <p>Blocks until the migration ends; exit code 0 when every shard moved and no write reached a
 * source after its cutover, 1 otherwise. Threading: picocli fills one instance per invocation; use
 * it from one thread, once.
 */
@Command(
    name = "resume",
    description = "Finishes a migration from its record in etcd (its mover died or was stopped).",
    footer = {
      "",
      "Examples:",
      "  jumpgate migrate resume m-20261124-1 --etcd http://127.0.0.1:2379 --cluster prod"
    })
public final class MigrateResumeCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private RedisCredentialsOptions redisCredentials;

  @Parameters(index = "0", paramLabel = "ID", description = "The migration id (migrate status).")
  private String migrationId;

  @Option(
      names = "--offline",
      description =
          "Go on offline: no change capture, no CONFIG SET; each group of shards is frozen for the"
              + " whole copy of its keys. A migration recorded offline goes on offline anyway.")
  private boolean offline;

  @Override
  public Integer call() {
    EtcdTopologyOptions options = etcd.toOptions(spec, JumpgateCli.environment(spec));
    MoveResult result;
    MoverOptions moverOptions =
        MoverOptions.builder()
            .offline(offline)
            .serverAddresses(redisCredentials.serverAddresses())
            .build();
    try (Mover mover = Mover.create(options, moverOptions)) {
      result = mover.resume(migrationId);
    }
    print(spec.commandLine().getOut(), result);
    return result.complete() ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /** The final summary of a run. */
  static void print(PrintWriter out, MoveResult result) {
    long longestFreeze = 0;
    for (GroupOutcome group : result.groups()) {
      if (group.cutOver() && group.freezeDuration() != null) {
        longestFreeze = Math.max(longestFreeze, group.freezeDuration().toMillis());
      }
    }
    out.println(
        "migration "
            + result.migrationId()
            + ": "
            + result.shardsCutOver().size()
            + " shard(s) cut over, "
            + result.shardsNotMoved().size()
            + " not moved, longest freeze "
            + longestFreeze
            + " ms, "
            + result.writesAfterCutoverTotal()
            + " write(s) after cutover, in "
            + result.elapsed().toMillis()
            + " ms");
    result
        .shardsNotMoved()
        .forEach((shard, why) -> out.println("  shard " + shard + " not moved: " + why));
    result
        .writesAfterCutover()
        .forEach(
            (shard, writes) -> {
              if (writes > 0) {
                out.println(
                    "  shard " + shard + ": " + writes + " write(s) reached its old leader");
              }
            });
  }
}
