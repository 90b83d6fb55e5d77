package io.jumpgate.cli;

import io.jumpgate.spi.MigrationLock;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationRecord;
import io.jumpgate.topology.MigrationStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate migrate status}: the migration lock (who holds it, since when) and every
 * migration record, with each shard's move and phase. A record with no live lock naming it belongs
 * to a mover that died: {@code migrate resume} finishes it.
 *
 * <p>Reads etcd only (bounded by {@code --timeout}). Threading: picocli fills one instance per
 * invocation; use it from one thread, once.
 */
@Command(
    name = "status",
    description = "Shows the migration lock and every migration recorded in etcd.",
    footer = {
      "",
      "--json prints one document:",
      "  {\"cluster\":..,\"lock\":{\"migration\":..,\"owner\":..,\"since\":..}|null,",
      "   \"migrations\":[{\"id\":..,\"created\":..,\"mode\":..,\"live\":true|false,",
      "   \"shards\":[{\"shard\":N,\"from\":..,\"to\":..,\"phase\":..},..]},..]}",
      "",
      "Examples:",
      "  jumpgate migrate status --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate migrate status --json --etcd http://127.0.0.1:2379 | jq '.migrations[].id'"
    })
public final class MigrateStatusCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  private boolean json;

  @Override
  public Integer call() {
    EtcdTopologyOptions options = etcd.toOptions(spec, JumpgateCli.environment(spec));
    Optional<MigrationLock> lock;
    List<MigrationStore.StoredRecord> records;
    try (MigrationStore store = MigrationStore.create(options)) {
      lock = store.readLock();
      records = store.listRecords();
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      JsonOutput.writeLine(
          out,
          generator -> {
            generator.writeStartObject();
            generator.writeStringField("cluster", options.cluster());
            if (lock.isPresent()) {
              generator.writeObjectFieldStart("lock");
              generator.writeStringField("migration", lock.get().migrationId());
              generator.writeStringField("owner", lock.get().owner());
              generator.writeStringField("since", lock.get().since());
              generator.writeEndObject();
            } else {
              generator.writeNullField("lock");
            }
            generator.writeArrayFieldStart("migrations");
            for (MigrationStore.StoredRecord stored : records) {
              MigrationRecord record = stored.record();
              generator.writeStartObject();
              generator.writeStringField("id", stored.migrationId());
              generator.writeStringField("created", record.created());
              generator.writeStringField("mode", record.mode());
              generator.writeBooleanField("live", isLive(lock, stored));
              generator.writeArrayFieldStart("shards");
              for (Map.Entry<Integer, MigrationRecord.ShardMove> move :
                  record.shards().entrySet()) {
                generator.writeStartObject();
                generator.writeNumberField("shard", move.getKey());
                generator.writeStringField("from", move.getValue().from());
                generator.writeStringField("to", move.getValue().to());
                generator.writeStringField("phase", move.getValue().phase());
                generator.writeEndObject();
              }
              generator.writeEndArray();
              generator.writeEndObject();
            }
            generator.writeEndArray();
            generator.writeEndObject();
          });
      return ExitCodes.OK;
    }
    out.println(
        lock.map(
                held ->
                    "lock: migration "
                        + held.migrationId()
                        + ", owner "
                        + held.owner()
                        + ", since "
                        + held.since())
            .orElse("lock: none"));
    if (records.isEmpty()) {
      out.println("no migration recorded in cluster '" + options.cluster() + "'");
      return ExitCodes.OK;
    }
    for (MigrationStore.StoredRecord stored : records) {
      MigrationRecord record = stored.record();
      out.println(
          "migration "
              + stored.migrationId()
              + " ("
              + record.mode()
              + ", created "
              + record.created()
              + "): "
              + record.shards().size()
              + " shard(s), "
              + (isLive(lock, stored)
                  ? "its mover holds the lock"
                  : "no mover holds its lock: finish it with 'jumpgate migrate resume "
                      + stored.migrationId()
                      + "'"));
      for (Map.Entry<Integer, MigrationRecord.ShardMove> move : record.shards().entrySet()) {
        out.println(
            "  shard "
                + move.getKey()
                + ": "
                + move.getValue().from()
                + " -> "
                + move.getValue().to()
                + ", "
                + move.getValue().phase());
      }
    }
    return ExitCodes.OK;
  }

  private static boolean isLive(Optional<MigrationLock> lock, MigrationStore.StoredRecord record) {
    return lock.isPresent() && lock.get().migrationId().equals(record.migrationId());
  }
}
