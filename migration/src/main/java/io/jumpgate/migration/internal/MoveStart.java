package io.jumpgate.migration.internal;

import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveRefusedException;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.MigrationLockHeldException;
import io.jumpgate.topology.MigrationLockLease;
import io.jumpgate.topology.MigrationRecord;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.StoredShard;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prepare phase, for a new migration or a resumed one: validates the plan against the map,
 * takes the lock, prepares the copiers and writes etcd in the order that keeps a failure harmless.
 *
 * <p>New migration: lock; copiers prepared (a refused {@code CONFIG SET} fails here, and releasing
 * the lock leaves etcd as it was); record created; shards marked migrating. Resume: lock; the
 * record's shards sorted by what the map says (led by their target: cut over, only cleaned up; led
 * by their source: copied again from scratch); those marked migrating at once (a shard a dead mover
 * left frozen is frozen again for clients as soon as a lock of the same migration exists); copiers
 * prepared.
 *
 * <p>Offline ({@link MoverOptions#offline()}, or a record whose {@code mode} is {@value
 * #MODE_OFFLINE}): the pairs only connect, nothing is set on the sources, and the record says
 * {@code "mode":"offline"} so that a resume continues offline whatever its options say. The
 * contract fixes the record's fields, not the vocabulary of {@code mode}, so this is no new field.
 * A resume with the option of a migration recorded online switches it to offline (its record is
 * updated first).
 *
 * <p>Not thread-safe: the mover's thread.
 */
public final class MoveStart {

  private static final Logger LOG = LoggerFactory.getLogger(MoveStart.class);

  /** The record's {@code mode} of an online migration. */
  public static final String MODE_ONLINE = "online";

  /** The record's {@code mode} of an offline migration. */
  public static final String MODE_OFFLINE = "offline";

  /** A migration ready to copy. */
  public record Started(
      String migrationId,
      MigrationLockLease lease,
      int shardCount,
      List<MovePair> pairs,
      Map<Integer, StoredShard> current,
      MigrationRecord record,
      long recordRevision,
      SortedSet<Integer> alreadyCutOver,
      SortedMap<Integer, String> notMoved,
      Map<String, BitSet> cleanupOnly,
      Map<String, ServerAddress> cleanupOnlyAddresses,
      Map<String, ServerAddress> recordedSourceAddresses,
      boolean offline) {}

  private final MigrationStore store;
  private final TopologyAdmin admin;
  private final MoverOptions options;

  public MoveStart(MigrationStore store, TopologyAdmin admin, MoverOptions options) {
    this.store = store;
    this.admin = admin;
    this.options = options;
  }

  /** Starts a new migration of {@code plan}. */
  public Started fresh(MovePlan plan) {
    String id = plan.migrationId();
    TopologyAdminState map = admin.read();
    for (Map.Entry<Integer, MovePlan.ShardMove> move : plan.moves().entrySet()) {
      int shard = move.getKey();
      ShardAssignment assignment = map.assignments().get(shard);
      if (assignment == null) {
        throw new MoveRefusedException(
            "shard "
                + shard
                + " has no valid entry in the map of cluster '"
                + map.cluster()
                + "' ("
                + map.metadata().shards()
                + " shards)");
      }
      if (!assignment.leader().equals(move.getValue().from())) {
        throw new MoveRefusedException(
            "shard "
                + shard
                + " is led by '"
                + assignment.leader()
                + "', not by '"
                + move.getValue().from()
                + "' as the plan says");
      }
      if (assignment.state() != ShardState.ACTIVE || assignment.migration() != null) {
        throw new MoveRefusedException(
            "shard "
                + shard
                + " is "
                + assignment.state().wireName()
                + (assignment.migration() == null
                    ? ""
                    : " under migration '" + assignment.migration().id() + "'")
                + ": finish or abort that migration first");
      }
    }
    MigrationLockLease lease = lock(id);
    List<MovePair> pairs = new ArrayList<>();
    try {
      boolean offline = options.offline();
      pairs = pairs(map, plan.moves(), offline);
      prepare(pairs);
      // Each source's setting as its first copier found it, before any copier changed it: the
      // value to put back whoever finishes the migration (a later pair of the same source found
      // the change capture flags its first pair had switched on).
      Map<String, String> originals = new TreeMap<>();
      Map<String, ServerAddress> sourceAddresses = new LinkedHashMap<>();
      for (MovePair pair : pairs) {
        String found = pair.notifyKeyspaceEventsFound();
        if (found != null && !originals.containsKey(pair.sourceId())) {
          originals.put(pair.sourceId(), found);
          sourceAddresses.put(pair.sourceId(), pair.source());
        }
      }
      SortedMap<Integer, MigrationRecord.ShardMove> moves = new TreeMap<>();
      plan.moves()
          .forEach(
              (shard, move) ->
                  moves.put(
                      shard,
                      new MigrationRecord.ShardMove(
                          move.from(), move.to(), MoveRun.PHASE_COPYING)));
      MigrationRecord record =
          new MigrationRecord(
              moves, Instant.now().toString(), offline ? MODE_OFFLINE : MODE_ONLINE, originals);
      long revision = store.createRecord(id, record);
      Map<Integer, StoredShard> current = markMigrating(id, plan.moves());
      return new Started(
          id,
          lease,
          map.metadata().shards(),
          pairs,
          current,
          record,
          revision,
          new TreeSet<>(),
          new TreeMap<>(),
          Map.of(),
          Map.of(),
          sourceAddresses,
          offline);
    } catch (RuntimeException e) {
      closeAll(pairs, e);
      lease.close();
      throw e;
    }
  }

  /** Resumes the migration whose record exists. */
  public Started resume(String migrationId) {
    MigrationStore.StoredRecord stored =
        store
            .readRecord(migrationId)
            .orElseThrow(
                () ->
                    new MoveRefusedException(
                        "no migration '"
                            + migrationId
                            + "' to resume: "
                            + store.keys().migration(migrationId)
                            + " does not exist"));
    MigrationLockLease lease = lock(migrationId);
    List<MovePair> pairs = new ArrayList<>();
    try {
      MigrationRecord record = stored.record();
      long recordRevision = stored.modRevision();
      boolean offline = options.offline() || MODE_OFFLINE.equals(record.mode());
      if (offline && !MODE_OFFLINE.equals(record.mode())) {
        record =
            new MigrationRecord(
                record.shards(), record.created(), MODE_OFFLINE, record.notifyKeyspaceEvents());
        recordRevision = store.updateRecord(migrationId, record, recordRevision);
        LOG.info(
            "migration '{}' was recorded {}; it goes on offline, as asked (its record says so now)",
            migrationId,
            stored.record().mode());
      } else if (offline && !options.offline()) {
        LOG.info(
            "migration '{}' was recorded offline: it goes on offline (shards frozen for the whole"
                + " copy of their group)",
            migrationId);
      }
      TopologyAdminState map = admin.read();
      SortedMap<Integer, MovePlan.ShardMove> toCopy = new TreeMap<>();
      SortedSet<Integer> cutOver = new TreeSet<>();
      SortedMap<Integer, String> notMoved = new TreeMap<>();
      Map<String, BitSet> cleanupOnly = new LinkedHashMap<>();
      Map<String, ServerAddress> addresses = new LinkedHashMap<>();
      for (Map.Entry<Integer, MigrationRecord.ShardMove> entry :
          stored.record().shards().entrySet()) {
        int shard = entry.getKey();
        MigrationRecord.ShardMove move = entry.getValue();
        ShardAssignment assignment = map.assignments().get(shard);
        if (assignment != null
            && assignment.leader().equals(move.to())
            && assignment.migration() == null) {
          cutOver.add(shard);
          cleanupOnly.computeIfAbsent(move.from(), node -> new BitSet()).set(shard);
          addresses.put(move.from(), address(map, move.from()));
        } else if (assignment != null && assignment.leader().equals(move.from())) {
          toCopy.put(shard, new MovePlan.ShardMove(move.from(), move.to()));
        } else {
          notMoved.put(
              shard,
              "led by '"
                  + (assignment == null ? "?" : assignment.leader())
                  + "' now, neither its source nor its target: changed by someone else");
        }
      }
      LOG.info(
          "resuming migration '{}': {} shards cut over already (cleanup only), {} copied again"
              + " from scratch, {} changed by someone else",
          migrationId,
          cutOver.size(),
          toCopy.size(),
          notMoved.size());
      Map<Integer, StoredShard> current =
          toCopy.isEmpty() ? new TreeMap<>() : markMigrating(migrationId, toCopy);
      pairs = pairs(map, toCopy, offline);
      Map<String, String> originals = record.notifyKeyspaceEvents();
      for (MovePair pair : pairs) {
        String original = originals.get(pair.sourceId());
        if (original != null) {
          pair.restoreNotifyKeyspaceEventsTo(original);
        }
      }
      if (originals.isEmpty() && !MODE_OFFLINE.equals(stored.record().mode())) {
        LOG.warn(
            "migration '{}' was recorded by an older mover, without its sources' original"
                + " notify-keyspace-events: a dead mover's change capture flags stay on them",
            migrationId);
      }
      prepare(pairs);
      return new Started(
          migrationId,
          lease,
          map.metadata().shards(),
          pairs,
          current,
          record,
          recordRevision,
          cutOver,
          notMoved,
          cleanupOnly,
          addresses,
          recordedSourceAddresses(map, originals.keySet(), migrationId),
          offline);
    } catch (RuntimeException e) {
      closeAll(pairs, e);
      lease.close();
      throw e;
    }
  }

  /** The addresses of the sources whose original setting the record holds; the others skipped. */
  private Map<String, ServerAddress> recordedSourceAddresses(
      TopologyAdminState map, Iterable<String> nodeIds, String migrationId) {
    Map<String, ServerAddress> addresses = new LinkedHashMap<>();
    for (String nodeId : nodeIds) {
      try {
        addresses.put(nodeId, address(map, nodeId));
      } catch (MoveRefusedException e) {
        LOG.warn(
            "migration '{}': cannot reach source '{}' to put its notify-keyspace-events back: {}",
            migrationId,
            nodeId,
            e.getMessage());
      }
    }
    return addresses;
  }

  private MigrationLockLease lock(String migrationId) {
    try {
      return store.acquireLock(migrationId, options.owner(), options.lockTtl());
    } catch (MigrationLockHeldException e) {
      throw new MoveRefusedException(
          "cannot run migration '" + migrationId + "': " + e.getMessage(), e);
    }
  }

  private Map<Integer, StoredShard> markMigrating(
      String migrationId, SortedMap<Integer, MovePlan.ShardMove> moves) {
    Map<Integer, StoredShard> read = store.readShards(moves.keySet());
    Map<Integer, StoredShard> current = new TreeMap<>();
    List<MigrationStore.Target> batch = new ArrayList<>();
    for (Map.Entry<Integer, MovePlan.ShardMove> move : moves.entrySet()) {
      StoredShard entry = read.get(move.getKey());
      if (entry == null) {
        throw new MoveRefusedException("shard " + move.getKey() + " vanished from the map");
      }
      batch.add(new MigrationStore.Target(entry, move.getValue().to()));
      if (batch.size() == MigrationStore.MAX_SHARDS_PER_TRANSACTION) {
        current.putAll(store.markMigrating(migrationId, batch).shards());
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      current.putAll(store.markMigrating(migrationId, batch).shards());
    }
    return current;
  }

  private List<MovePair> pairs(
      TopologyAdminState map, SortedMap<Integer, MovePlan.ShardMove> moves, boolean offline) {
    Map<MovePlan.ShardMove, BitSet> byPair = new LinkedHashMap<>();
    moves.forEach((shard, move) -> byPair.computeIfAbsent(move, m -> new BitSet()).set(shard));
    List<MovePair> pairs = new ArrayList<>();
    byPair.forEach(
        (move, shards) ->
            pairs.add(
                new MovePair(
                    move.from(),
                    move.to(),
                    address(map, move.from()),
                    address(map, move.to()),
                    map.metadata().shards(),
                    shards,
                    options.copier(),
                    offline)));
    return pairs;
  }

  private ServerAddress address(TopologyAdminState map, String nodeId) {
    Node node = map.nodes().get(nodeId);
    if (node == null) {
      throw new MoveRefusedException(
          "node '"
              + nodeId
              + "' is not in the node table of cluster '"
              + map.cluster()
              + "': add it first");
    }
    if (node.tls()) {
      throw new MoveRefusedException(
          "node '" + nodeId + "' expects TLS, which the mover does not support yet");
    }
    return options.serverAddresses().apply(node);
  }

  private static void prepare(List<MovePair> pairs) {
    for (MovePair pair : pairs) {
      pair.prepare();
    }
  }

  private static void closeAll(List<MovePair> pairs, RuntimeException failure) {
    for (MovePair pair : pairs) {
      try {
        pair.close();
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
