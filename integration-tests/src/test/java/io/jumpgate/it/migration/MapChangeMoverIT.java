package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An admin change with its data following the map ({@link MapChangeMover}) against real etcd and
 * redis-server processes, under a load through two driver clients: a node added (entry first, then
 * a quarter of the leaderships moved onto it with their keys), then the same node removed (its
 * shards moved back, its entry deleted): no client error, every key on exactly its owner with its
 * value and TTL after each.
 */
class MapChangeMoverIT {

  private static final int SHARDS = 64;
  private static final int DATA_KEYS = 4_000;
  private static final String NEW_NODE = "node-new";

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_add_then_remove_a_node_with_its_data_when_clients_write() throws Exception {
    // Given three leaders of 64 shards holding data, and an empty server not in the map
    Grown setup = start("grow");
    EtcdTopologyOptions etcd = setup.etcd();
    Map<String, RedisProcess> servers = setup.servers();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    Map<String, String> data = setup.data();
    Map<String, Boolean> dataTtl = setup.dataTtl();
    JumpgateClient syncClient = setup.syncClient();
    JumpgateClient asyncClient = setup.asyncClient();
    MoverOptions options =
        MoverOptions.builder().groupSize(8).cleanupGrace(Duration.ofMillis(1500)).build();
    Node node = setup.newNode();

    try (MoverLoad load =
            new MoverLoad(syncClient.connect().sync(), 3, asyncClient.connect().async(), 200);
        MapChangeMover changes = MapChangeMover.create(etcd, options, new MoveListener() {})) {
      Poll.until(
          Duration.ofSeconds(20), "1,000 operations first", () -> load.operations.get() > 1_000);

      // When the node is added with its data while the clients write
      MapChangeMover.Planned planned = changes.plan(MapChange.addNode(node));
      assertThat(planned.leaderMoves()).isPresent();
      int moving = planned.leaderMoves().get().moves().size();
      MapChangeMover.Result added = changes.apply(MapChange.addNode(node));

      // Then it leads a quarter of the shards, and every key is on its owner
      assertThat(added.complete()).isTrue();
      assertThat(added.moves()).hasSize(1);
      assertThat(added.moves().get(0).shardsCutOver()).hasSize(moving);
      assertThat(leadersOf(etcd, NEW_NODE)).isEqualTo(moving).isEqualTo(SHARDS / 4);
      awaitMoreOperations(load);
      OwnerCheck.assertEveryKeyOnItsOwner(etcd, servers, router, null, data, dataTtl);

      // When the same node is removed with its data
      MapChangeMover.Result removed = changes.apply(MapChange.removeNode(NEW_NODE));

      // Then it leads nothing, its entry is gone, and every key is on its owner again
      assertThat(removed.complete()).isTrue();
      assertThat(removed.mapOnly()).as("the node entry's deletion").isNotNull();
      assertThat(leadersOf(etcd, NEW_NODE)).isZero();
      try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
        assertThat(admin.read().nodes()).doesNotContainKey(NEW_NODE);
      }
      awaitMoreOperations(load);
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).isEmpty();
      OwnerCheck.assertEveryKeyOnItsOwner(etcd, servers, router, load, data, dataTtl);
    }
    try (MigrationStore store = MigrationStore.create(etcd)) {
      assertThat(store.listRecords()).isEmpty();
      assertThat(store.readLock()).isEmpty();
    }
  }

  @Test
  void should_rebalance_onto_an_empty_node_with_its_data_when_clients_write() throws Exception {
    // Given three leaders of 64 shards holding data, and a fourth node in the table leading nothing
    Grown setup = start("even");
    EtcdTopologyOptions etcd = setup.etcd();
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      admin.apply(admin.planAddNodeEntry(setup.newNode()));
    }
    JumpgateClient syncClient = setup.syncClient();
    JumpgateClient asyncClient = setup.asyncClient();
    MoverOptions options =
        MoverOptions.builder().groupSize(8).cleanupGrace(Duration.ofMillis(1500)).build();

    try (MoverLoad load =
            new MoverLoad(syncClient.connect().sync(), 3, asyncClient.connect().async(), 200);
        MapChangeMover changes = MapChangeMover.create(etcd, options, new MoveListener() {})) {
      Poll.until(
          Duration.ofSeconds(20), "1,000 operations first", () -> load.operations.get() > 1_000);

      // When the cluster is rebalanced with its data while the clients write
      MapChangeMover.Result rebalanced = changes.apply(MapChange.rebalance());

      // Then the new node leads its share, a second rebalance has nothing to move, and every key
      // is on its owner with its value and TTL, every INCR counted once
      assertThat(rebalanced.complete()).isTrue();
      assertThat(leadersOf(etcd, NEW_NODE)).isEqualTo(SHARDS / 4);
      assertThat(changes.plan(MapChange.rebalance()).leaderMoves()).isEmpty();
      awaitMoreOperations(load);
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).isEmpty();
      OwnerCheck.assertEveryKeyOnItsOwner(
          etcd,
          setup.servers(),
          Xxh64JumpRouter.forShards(SHARDS),
          load,
          setup.data(),
          setup.dataTtl());
    }
  }

  /**
   * Three leaders of 64 shards, an empty fourth server not in the map, two driver clients, and
   * {@value #DATA_KEYS} keys written through them (one in ten hash-tagged, one in five with a TTL).
   */
  private record Grown(
      EtcdTopologyOptions etcd,
      Map<String, RedisProcess> servers,
      Node newNode,
      JumpgateClient syncClient,
      JumpgateClient asyncClient,
      Map<String, String> data,
      Map<String, Boolean> dataTtl) {}

  private Grown start(String clusterName) throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, clusterName, SHARDS, 3, 0);
    RedisProcess newServer = fixture.redis();
    EtcdTopologyOptions etcd = cluster.etcdOptions();
    Map<String, RedisProcess> servers = new HashMap<>();
    for (int index = 0; index < 3; index++) {
      servers.put(LocalCluster.leaderId(index), cluster.leader(index));
    }
    servers.put(NEW_NODE, newServer);
    JumpgateClient syncClient = client(etcd);
    JumpgateClient asyncClient = client(etcd);
    Map<String, String> data = new TreeMap<>();
    Map<String, Boolean> dataTtl = new HashMap<>();
    var async = asyncClient.connect().async();
    List<CompletableFuture<?>> writes = new ArrayList<>();
    for (int index = 0; index < DATA_KEYS; index++) {
      String key = (index % 10 == 0 ? "{user" + index / 10 + "}:" : "data:") + index;
      data.put(key, "value-" + index);
      dataTtl.put(key, index % 5 == 0);
      writes.add(async.set(key, "value-" + index).toCompletableFuture());
      if (index % 5 == 0) {
        writes.add(async.pexpire(key, 600_000).toCompletableFuture());
      }
    }
    for (CompletableFuture<?> write : writes) {
      write.get(30, TimeUnit.SECONDS);
    }
    return new Grown(
        etcd,
        servers,
        Node.of(NEW_NODE, "127.0.0.1", newServer.port()),
        syncClient,
        asyncClient,
        data,
        dataTtl);
  }

  private JumpgateClient client(EtcdTopologyOptions etcd) {
    return fixture.register(
        JumpgateClient.create(
            JumpgateOptions.builder().etcd(etcd).commandTimeout(Duration.ofSeconds(2)).build()));
  }

  private static void awaitMoreOperations(MoverLoad load) {
    long now = load.operations.get();
    Poll.until(
        Duration.ofSeconds(20),
        "1,000 more operations after the change",
        () -> load.operations.get() > now + 1_000);
  }

  private static long leadersOf(EtcdTopologyOptions etcd, String nodeId) {
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      TopologyAdminState map = admin.read();
      return map.assignments().values().stream()
          .map(ShardAssignment::leader)
          .filter(nodeId::equals)
          .count();
    }
  }
}
