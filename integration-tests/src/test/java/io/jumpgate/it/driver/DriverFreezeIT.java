package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationLockLease;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.StoredShard;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The driver's part in a migration's cutover, against real etcd and redis-server processes, with
 * the test as the mover (through the public MigrationStore): under a running INCR load, the shard
 * is frozen, the client acknowledges (drained), the key is copied while nothing writes to it, the
 * cutover moves the leader, and the held INCRs go to the new leader: no error, none lost, none
 * doubled, and the old leader saw no write after the acknowledgement.
 */
class DriverFreezeIT {

  private static final int SHARDS = 16;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final ExecutorService load = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopLoad() {
    load.shutdownNow();
  }

  private static String keyOfShard(int shard) {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    for (int index = 0; ; index++) {
      String key = "counter:" + index;
      if (router.shardOfUtf8(key) == shard) {
        return key;
      }
    }
  }

  @Test
  void should_cut_a_shard_over_under_incr_load_with_no_error_and_every_incr_counted_once()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 0);
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                JumpgateOptions.builder()
                    .etcd(etcd)
                    .commandTimeout(Duration.ofSeconds(5))
                    .build()));
    JumpgateCommands<String, String> redis = client.connect().sync();
    String key = keyOfShard(0);
    RedisProcess from = cluster.initialLeaderOf(0);
    int fromIndex = cluster.leaders().indexOf(from);
    RedisProcess to = cluster.leader(1 - fromIndex);
    String toId = LocalCluster.leaderId(1 - fromIndex);

    // Given three writers that INCR the shard's key without pause
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong acknowledged = new AtomicLong();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Future<?>> writers =
        List.of(
            load.submit(() -> writeLoop(redis, key, running, acknowledged, errors)),
            load.submit(() -> writeLoop(redis, key, running, acknowledged, errors)),
            load.submit(() -> writeLoop(redis, key, running, acknowledged, errors)));
    Poll.until(Duration.ofSeconds(10), "200 INCRs before the move", () -> acknowledged.get() > 200);

    // When the test, as the mover, freezes the shard, waits for the client, copies, cuts over
    String copied;
    long frozenAt;
    try (MigrationStore store = MigrationStore.create(etcd)) {
      MigrationLockLease lease = store.acquireLock("m1", "driver-freeze-it");
      long lock = lease.lock().createRevision();
      Map<Integer, StoredShard> shard = store.readShards(List.of(0));
      MigrationStore.ShardsWritten migrating =
          store.markMigrating("m1", List.of(new MigrationStore.Target(shard.get(0), toId)));
      MigrationStore.ShardsWritten frozen = store.freeze("m1", migrating.shards().values(), lock);
      frozenAt = frozen.revision();
      Poll.until(
          Duration.ofSeconds(5),
          "the client to acknowledge the freeze at revision " + frozenAt,
          () -> store.readClients().allDrained(frozenAt));
      copied = String.valueOf(from.call("GET", key));
      to.call("SET", key, copied);
      store.cutOver("m1", frozen.shards().values(), lock);
      // nothing reached the old leader after the acknowledgement
      assertThat(String.valueOf(from.call("GET", key))).isEqualTo(copied);
      lease.close();
    }
    long atCutover = acknowledged.get();
    Poll.until(
        Duration.ofSeconds(10),
        "200 INCRs after the move",
        () -> acknowledged.get() > atCutover + 200);
    running.set(false);
    for (Future<?> writer : writers) {
      writer.get(10, TimeUnit.SECONDS);
    }

    // Then no error, and the new leader holds exactly one increment per acknowledged INCR
    assertThat(errors).isEmpty();
    assertThat(Long.parseLong(String.valueOf(to.call("GET", key)))).isEqualTo(acknowledged.get());
    assertThat(String.valueOf(from.call("GET", key))).isEqualTo(copied);
    // and the client's connections carry its name, for a mover's CLIENT LIST
    assertThat(String.valueOf(from.call("CLIENT", "LIST")))
        .contains("name=jumpgate:" + client.clientId().orElseThrow());
  }

  private static void writeLoop(
      JumpgateCommands<String, String> redis,
      String key,
      AtomicBoolean running,
      AtomicLong acknowledged,
      ConcurrentLinkedQueue<Throwable> errors) {
    while (running.get()) {
      try {
        redis.incr(key);
        acknowledged.incrementAndGet();
      } catch (RuntimeException e) {
        errors.add(e);
      }
    }
  }
}
