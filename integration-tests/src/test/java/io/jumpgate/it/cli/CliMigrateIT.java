package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationLockLease;
import io.jumpgate.topology.MigrationRecord;
import io.jumpgate.topology.MigrationStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code jumpgate migrate status|abort} against real etcd and redis-server processes: a migration
 * whose mover died (its record stays, its lock is gone) is shown as not live with the command that
 * finishes it, and an abort lifts it with nothing moved.
 */
class CliMigrateIT {

  private static final int SHARDS = 16;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_show_a_migration_whose_mover_died_and_abort_it_with_nothing_moved() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 0);
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    String from = LocalCluster.leaderId(3 % 2);
    String to = LocalCluster.leaderId(1 - 3 % 2);
    // Given a mover that recorded a migration of shard 3, marked it and died (its lock is gone)
    try (MigrationStore store = MigrationStore.create(etcd)) {
      MigrationLockLease lease = store.acquireLock("m1", "dead-mover:1");
      store.createRecord(
          "m1",
          new MigrationRecord(
              Map.of(3, new MigrationRecord.ShardMove(from, to, "copying")),
              "2026-11-24T10:00:00Z",
              "online"));
      store.markMigrating(
          "m1", List.of(new MigrationStore.Target(store.readShards(List.of(3)).get(3), to)));
      lease.close();
    }
    String[] source = {"--etcd", cluster.etcd().endpointList(), "--cluster", cluster.cluster()};

    // When status is asked
    CliRun.Result json = CliRun.run(concat(new String[] {"migrate", "status", "--json"}, source));
    CliRun.Result text = CliRun.run(concat(new String[] {"migrate", "status"}, source));

    // Then it shows the record, not live, and how to finish it
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode status = new ObjectMapper().readTree(json.out());
    assertThat(status.get("lock").isNull()).isTrue();
    JsonNode migration = status.get("migrations").get(0);
    assertThat(migration.get("id").asText()).isEqualTo("m1");
    assertThat(migration.get("live").asBoolean()).isFalse();
    assertThat(migration.get("shards").get(0).get("shard").asInt()).isEqualTo(3);
    assertThat(migration.get("shards").get(0).get("to").asText()).isEqualTo(to);
    assertThat(text.out()).contains("jumpgate migrate resume m1");

    // When it is aborted
    CliRun.Result abort = CliRun.run(concat(new String[] {"migrate", "abort", "m1"}, source));

    // Then nothing moved: the shard is active on its leader, and no record or lock is left
    assertThat(abort.exitCode()).as(abort.err()).isZero();
    assertThat(abort.out()).contains("migration m1 aborted: no shard had been cut over");
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
      var shard = store.readShards(List.of(3)).get(3).assignment();
      assertThat(shard.state()).isEqualTo(ShardState.ACTIVE);
      assertThat(shard.leader()).isEqualTo(from);
    }
    CliRun.Result after = CliRun.run(concat(new String[] {"migrate", "status"}, source));
    assertThat(after.out()).contains("no migration recorded");
  }

  private static String[] concat(String[] first, String[] second) {
    String[] all = new String[first.length + second.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }
}
