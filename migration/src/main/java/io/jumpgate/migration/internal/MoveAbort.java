package io.jumpgate.migration.internal;

import io.jumpgate.migration.MoveRefusedException;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.topology.MigrationLockHeldException;
import io.jumpgate.topology.MigrationLockLease;
import io.jumpgate.topology.MigrationRecord;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.StoredShard;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes a recorded migration: under the lock, every shard still migrating or frozen under it is
 * given up (stays on its source), the targets' partial copies of those shards are removed, the
 * sources' keys of shards already cut over are removed, each source's {@code
 * notify-keyspace-events} is set back to its value before the migration (the record's, if a killed
 * mover left change capture on), and the record is deleted.
 *
 * <p>Not thread-safe: the caller's thread.
 */
public final class MoveAbort {

  private static final Logger LOG = LoggerFactory.getLogger(MoveAbort.class);

  private final MigrationStore store;
  private final TopologyAdmin admin;
  private final MoverOptions options;

  public MoveAbort(MigrationStore store, TopologyAdmin admin, MoverOptions options) {
    this.store = store;
    this.admin = admin;
    this.options = options;
  }

  /** Aborts; returns the shards that stay cut over. */
  public SortedSet<Integer> abort(String migrationId) {
    MigrationStore.StoredRecord stored =
        store
            .readRecord(migrationId)
            .orElseThrow(
                () ->
                    new MoveRefusedException(
                        "no migration '"
                            + migrationId
                            + "' to abort: "
                            + store.keys().migration(migrationId)
                            + " does not exist"));
    MigrationLockLease lease;
    try {
      lease = store.acquireLock(migrationId, options.owner(), options.lockTtl());
    } catch (MigrationLockHeldException e) {
      throw new MoveRefusedException(
          "cannot abort migration '" + migrationId + "': " + e.getMessage(), e);
    }
    try (ServerConnections connections =
        new ServerConnections(
            options.copier().connectTimeout(), options.copier().commandTimeout(), 10_000)) {
      TopologyAdminState map = admin.read();
      Map<Integer, StoredShard> entries = store.readShards(stored.record().shards().keySet());
      List<StoredShard> giveUp = new ArrayList<>();
      Map<String, BitSet> partialCopies = new LinkedHashMap<>();
      Map<String, BitSet> movedSources = new LinkedHashMap<>();
      SortedSet<Integer> cutOver = new TreeSet<>();
      for (Map.Entry<Integer, MigrationRecord.ShardMove> entry :
          stored.record().shards().entrySet()) {
        int shard = entry.getKey();
        MigrationRecord.ShardMove move = entry.getValue();
        StoredShard stored1 = entries.get(shard);
        ShardAssignment assignment = stored1 == null ? null : stored1.assignment();
        if (assignment == null) {
          continue;
        }
        if (assignment.migration() != null && assignment.migration().id().equals(migrationId)) {
          giveUp.add(stored1);
          partialCopies.computeIfAbsent(move.to(), node -> new BitSet()).set(shard);
        } else if (assignment.leader().equals(move.to())) {
          cutOver.add(shard);
          movedSources.computeIfAbsent(move.from(), node -> new BitSet()).set(shard);
        } else if (assignment.leader().equals(move.from())) {
          partialCopies.computeIfAbsent(move.to(), node -> new BitSet()).set(shard);
        }
      }
      for (int start = 0;
          start < giveUp.size();
          start += MigrationStore.MAX_SHARDS_PER_TRANSACTION) {
        List<StoredShard> batch =
            giveUp.subList(
                start, Math.min(giveUp.size(), start + MigrationStore.MAX_SHARDS_PER_TRANSACTION));
        store.giveUp(migrationId, batch, lease.lock().createRevision());
      }
      KeyRemover remover =
          new KeyRemover(
              Xxh64JumpRouter.forShards(map.metadata().shards()),
              options.copier().scanCount(),
              options.copier().cleanupBatchSize(),
              options.copier().cleanupKeysPerSecond(),
              options.copier().commandTimeout());
      remove(remover, connections, map, partialCopies, "target");
      remove(remover, connections, map, movedSources, "source");
      // Before the record goes: a mover killed after prepare left change capture on its sources.
      OriginalNotifyKeyspaceEvents.restore(
          migrationId,
          stored.record().notifyKeyspaceEvents(),
          addresses(map, stored.record().notifyKeyspaceEvents().keySet()),
          connections,
          options.copier().commandTimeout());
      store.deleteRecord(migrationId, stored.modRevision());
      LOG.info(
          "migration '{}' aborted: {} shards given up, {} stay cut over",
          migrationId,
          giveUp.size(),
          cutOver.size());
      return cutOver;
    } finally {
      lease.close();
    }
  }

  /** The addresses of the nodes still in the map's node table. */
  private Map<String, ServerAddress> addresses(TopologyAdminState map, Iterable<String> nodeIds) {
    Map<String, ServerAddress> addresses = new LinkedHashMap<>();
    for (String nodeId : nodeIds) {
      Node node = map.nodes().get(nodeId);
      if (node != null) {
        addresses.put(nodeId, options.serverAddresses().apply(node));
      }
    }
    return addresses;
  }

  private void remove(
      KeyRemover remover,
      ServerConnections connections,
      TopologyAdminState map,
      Map<String, BitSet> byNode,
      String role) {
    for (Map.Entry<String, BitSet> entry : byNode.entrySet()) {
      Node node = map.nodes().get(entry.getKey());
      if (node == null) {
        LOG.warn(
            "node '{}' is gone from the map: its keys of shards {} stay",
            entry.getKey(),
            entry.getValue());
        continue;
      }
      ServerAddress address = options.serverAddresses().apply(node);
      long removed =
          remover.remove(
              connections.connect(address, "abort"),
              entry.getValue(),
              role + " " + entry.getKey() + " (" + address + ")");
      LOG.info(
          "removed {} keys of shards {} from {} '{}'",
          removed,
          entry.getValue(),
          role,
          entry.getKey());
    }
  }
}
