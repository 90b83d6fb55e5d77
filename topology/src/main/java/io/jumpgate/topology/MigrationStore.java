package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a mover writes and reads in etcd, with exactly the transactions of the topology contract's
 * Migration section. The mover (the {@code migration} module) drives the phases; this class only
 * knows the keys.
 *
 * <h2>The keys and transactions</h2>
 *
 * <ul>
 *   <li><b>The lock</b>, {@code <root>/migration-lock}: {@link #acquireLock} puts it bound to a new
 *       lease only if it does not exist (create revision 0), keeps the lease alive and releases it
 *       on {@link MigrationLockLease#close()}. Its create revision ({@link MigrationLock#
 *       createRevision()}) identifies this holding: the freeze and the cutover compare it, so a
 *       mover whose lease expired (after which clients went back to the old leader) can never
 *       freeze or cut over again with the same lock.
 *   <li><b>The record</b>, {@code <root>/migrations/<id>} ({@link MigrationRecord}): created only
 *       if absent, updated and deleted only at the mod revision the caller read.
 *   <li><b>Shards</b>: {@link #markMigrating}, {@link #freeze}, {@link #cutOver} and {@link
 *       #giveUp} each write one group of shards in one transaction that compares the mod revision
 *       of every shard key with the one the caller read ({@link StoredShard}); {@code freeze},
 *       {@code cutOver} and {@code giveUp} also compare the lock's create revision; {@code
 *       markMigrating} and {@code cutOver} also check that the target node's entry exists. Each
 *       returns the entries as written, at the transaction's revision, for the next step: the
 *       revision of {@link #freeze} is the revision every client must acknowledge ({@code drained}
 *       at least that) before the cutover. A transaction that loses writes nothing and throws
 *       {@link MigrationConflictException} saying which compare lost.
 *   <li><b>The registry</b>, {@code <root>/clients/}: {@link #readClients} and {@link
 *       #watchClients}, with each client's {@code drained} ({@link RegisteredClient}).
 * </ul>
 *
 * <h2>Calls and threads</h2>
 *
 * <p>Like {@link TopologyAdmin}: every method blocks the calling thread until etcd answers, each
 * etcd call bounded by {@link EtcdTopologyOptions#requestTimeout()} (default 5 s); no callback runs
 * on a jetcd thread, so do not call these methods from one. A read that fails throws {@link
 * TopologyUnavailableException}; a write that gets no answer throws {@link TopologyAdminException}
 * with {@link TopologyAdminException.Reason#OUTCOME_UNKNOWN} (read the keys to know), one that etcd
 * refuses {@link TopologyAdminException.Reason#REJECTED}. Transactions are never retried. A shard
 * transaction holds at most {@link #MAX_SHARDS_PER_TRANSACTION} shards (etcd's {@code
 * --max-txn-ops} is 128 by default).
 *
 * <p>Thread-safe; {@link #close()} closes the jetcd client if the store created it (close the lock
 * leases and registry watches first).
 */
public final class MigrationStore implements AutoCloseable {

  /** The lease time of the lock when none is given: 10 s. */
  public static final Duration DEFAULT_LOCK_TTL = Duration.ofSeconds(10);

  /** The most shards one shard transaction writes: 100. */
  public static final int MAX_SHARDS_PER_TRANSACTION = 100;

  private static final Logger LOG = LoggerFactory.getLogger(MigrationStore.class);

  /**
   * A shard to mark migrating, and where its data goes.
   *
   * @param shard the shard's entry as read
   * @param to the target node's id, never the shard's leader
   */
  public record Target(StoredShard shard, String to) {

    public Target {
      Objects.requireNonNull(shard, "shard");
      Objects.requireNonNull(to, "to");
    }
  }

  /**
   * What a shard transaction wrote.
   *
   * @param revision the etcd revision of the transaction
   * @param shards each shard's entry as written (mod revision {@code revision}), by shard id
   */
  public record ShardsWritten(long revision, Map<Integer, StoredShard> shards) {

    public ShardsWritten {
      shards = java.util.Collections.unmodifiableMap(new TreeMap<>(shards));
    }
  }

  /**
   * A migration record as read.
   *
   * @param migrationId the id from the key
   * @param record the decoded value
   * @param modRevision the mod revision of the key, for {@link #updateRecord} and {@link
   *     #deleteRecord}
   */
  public record StoredRecord(String migrationId, MigrationRecord record, long modRevision) {}

  private final EtcdTopologyOptions options;
  private final TopologyKeys keys;
  private final Client client;
  private final boolean ownsClient;
  private final KV kv;
  private final EtcdCalls calls;

  private MigrationStore(EtcdTopologyOptions options, Client client, boolean ownsClient) {
    this.options = Objects.requireNonNull(options, "options");
    this.keys = TopologyKeys.forCluster(options.cluster());
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.kv = client.getKVClient();
    this.calls = new EtcdCalls(options);
  }

  /** A store with its own jetcd client, closed with it. */
  public static MigrationStore create(EtcdTopologyOptions options) {
    return new MigrationStore(options, EtcdClients.create(options), true);
  }

  /**
   * A store that shares a jetcd client built elsewhere (for the options' endpoints and
   * credentials); the client is not closed with the store.
   */
  public static MigrationStore create(EtcdTopologyOptions options, Client client) {
    return new MigrationStore(options, client, false);
  }

  /** The cluster's keys. */
  public TopologyKeys keys() {
    return keys;
  }

  // ---- the lock ------------------------------------------------------------------------------

  /** {@link #acquireLock(String, String, Duration)} with {@link #DEFAULT_LOCK_TTL}. */
  public MigrationLockLease acquireLock(String migrationId, String owner) {
    return acquireLock(migrationId, owner, DEFAULT_LOCK_TTL);
  }

  /**
   * Takes the cluster's migration lock: grants a lease of {@code ttl}, puts {@code
   * <root>/migration-lock} bound to it only if the key does not exist, and keeps the lease alive
   * until the returned lease is closed (or lost: {@link MigrationLockLease#lost()}).
   *
   * @param migrationId the migration the lock is for ({@link ShardMigration#ID_PATTERN})
   * @param owner who takes it, by convention {@code host:pid}
   * @param ttl the lease's time to live, whole seconds, at least 2 s (etcd may raise it to its
   *     minimum)
   * @throws MigrationLockHeldException naming the owner, migration and create revision of the lock
   *     that is held; the new lease is revoked
   * @throws TopologyUnavailableException if etcd cannot be reached
   */
  public MigrationLockLease acquireLock(String migrationId, String owner, Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.toSeconds() < 2) {
      throw new IllegalArgumentException("lock ttl must be at least 2 s, was " + ttl);
    }
    MigrationLock wanted =
        new MigrationLock(migrationId, owner, options.clock().instant().toString(), 1);
    return MigrationLockLease.acquire(client, calls, keys, wanted, ttl.toSeconds());
  }

  /** The lock as etcd has it now, with its create revision; empty when absent or undecodable. */
  public Optional<MigrationLock> readLock() {
    GetResponse response =
        calls.read(kv.get(bytes(keys.migrationLock())), "reading " + keys.migrationLock());
    if (response.getKvs().isEmpty()) {
      return Optional.empty();
    }
    KeyValue lock = response.getKvs().get(0);
    try {
      return Optional.of(
          MigrationCodec.decodeLock(lock.getValue().getBytes(), lock.getCreateRevision()));
    } catch (TopologyEntryException e) {
      LOG.warn(
          "cluster '{}': {} does not decode: {}",
          keys.cluster(),
          keys.migrationLock(),
          e.getMessage());
      return Optional.empty();
    }
  }

  // ---- the record ----------------------------------------------------------------------------

  /**
   * The record of a migration, when it exists.
   *
   * @throws TopologyEntryException if its value does not decode
   */
  public Optional<StoredRecord> readRecord(String migrationId) {
    String key = keys.migration(requireMigrationId(migrationId));
    GetResponse response = calls.read(kv.get(bytes(key)), "reading " + key);
    if (response.getKvs().isEmpty()) {
      return Optional.empty();
    }
    KeyValue value = response.getKvs().get(0);
    return Optional.of(
        new StoredRecord(
            migrationId,
            MigrationCodec.decodeRecord(value.getValue().getBytes()),
            value.getModRevision()));
  }

  /**
   * Every record under {@code <root>/migrations/}, by key order; a record that does not decode is
   * logged and left out.
   */
  public List<StoredRecord> listRecords() {
    GetResponse response =
        calls.read(
            kv.get(bytes(keys.migrationsPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.migrationsPrefix());
    List<StoredRecord> records = new ArrayList<>();
    for (KeyValue value : response.getKvs()) {
      String key = value.getKey().toString(StandardCharsets.UTF_8);
      String id = key.substring(keys.migrationsPrefix().length());
      try {
        records.add(
            new StoredRecord(
                id,
                MigrationCodec.decodeRecord(value.getValue().getBytes()),
                value.getModRevision()));
      } catch (TopologyEntryException e) {
        LOG.warn("cluster '{}': {} does not decode: {}", keys.cluster(), key, e.getMessage());
      }
    }
    return records;
  }

  /**
   * Creates a migration's record, only if it does not exist.
   *
   * @return the record's mod revision
   * @throws MigrationConflictException if a record of that id exists
   */
  public long createRecord(String migrationId, MigrationRecord record) {
    return putRecord(migrationId, record, 0);
  }

  /**
   * Rewrites a migration's record, only if its mod revision is still {@code expectedModRevision}.
   *
   * @return the record's new mod revision
   * @throws MigrationConflictException if the record changed or is gone
   */
  public long updateRecord(String migrationId, MigrationRecord record, long expectedModRevision) {
    requirePositive(expectedModRevision, "expectedModRevision");
    return putRecord(migrationId, record, expectedModRevision);
  }

  /**
   * Deletes a migration's record (the migration is finished or aborted), only if its mod revision
   * is still {@code expectedModRevision}.
   *
   * @throws MigrationConflictException if the record changed or is gone
   */
  public void deleteRecord(String migrationId, long expectedModRevision) {
    requirePositive(expectedModRevision, "expectedModRevision");
    String key = keys.migration(requireMigrationId(migrationId));
    TxnResponse response =
        commit(
            kv.txn()
                .If(EtcdCalls.modRevisionIs(key, expectedModRevision))
                .Then(Op.delete(bytes(key), DeleteOption.DEFAULT))
                .Else(Op.get(bytes(key), GetOption.DEFAULT)),
            "deleting " + key,
            expectedModRevision);
    if (!response.isSucceeded()) {
      throw recordConflict(key, expectedModRevision, response);
    }
  }

  private long putRecord(String migrationId, MigrationRecord record, long expectedModRevision) {
    Objects.requireNonNull(record, "record");
    String key = keys.migration(requireMigrationId(migrationId));
    TxnResponse response =
        commit(
            kv.txn()
                .If(EtcdCalls.modRevisionIs(key, expectedModRevision))
                .Then(
                    Op.put(
                        bytes(key),
                        ByteSequence.from(MigrationCodec.encodeRecord(record)),
                        PutOption.DEFAULT))
                .Else(Op.get(bytes(key), GetOption.DEFAULT)),
            (expectedModRevision == 0 ? "creating " : "updating ") + key,
            expectedModRevision);
    if (!response.isSucceeded()) {
      throw recordConflict(key, expectedModRevision, response);
    }
    return response.getHeader().getRevision();
  }

  private MigrationConflictException recordConflict(
      String key, long expected, TxnResponse response) {
    List<KeyValue> found = response.getGetResponses().get(0).getKvs();
    long now = found.isEmpty() ? 0 : found.get(0).getModRevision();
    String detail;
    if (expected == 0) {
      detail = key + " exists already (written at revision " + now + "): nothing written";
    } else if (now == 0) {
      detail = key + " is gone (expected it at mod revision " + expected + "): nothing written";
    } else {
      detail =
          key
              + " changed at revision "
              + now
              + " (expected mod revision "
              + expected
              + "): nothing written";
    }
    return new MigrationConflictException(expected, detail);
  }

  // ---- shards --------------------------------------------------------------------------------

  /**
   * The entries of some shards as etcd has them now, by shard id; a shard without an entry, or
   * whose entry does not decode, is left out (a missing shard cannot be migrated). One ranged GET
   * of {@code <root>/shards/}; a shard stored under two paddings of its id is read from the first
   * key in key order, as the admin does.
   */
  public Map<Integer, StoredShard> readShards(Collection<Integer> shards) {
    Set<Integer> wanted = new LinkedHashSet<>(shards);
    GetResponse response =
        calls.read(
            kv.get(bytes(keys.shardsPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.shardsPrefix());
    Map<Integer, StoredShard> found = new TreeMap<>();
    for (KeyValue value : response.getKvs()) {
      String key = value.getKey().toString(StandardCharsets.UTF_8);
      int shard = keys.parse(key).shard();
      if (shard < 0 || !wanted.contains(shard) || found.containsKey(shard)) {
        continue;
      }
      try {
        found.put(
            shard,
            new StoredShard(
                key,
                TopologyCodec.decodeAssignment(shard, value.getValue().getBytes()),
                value.getModRevision()));
      } catch (TopologyEntryException e) {
        LOG.warn("cluster '{}': {} does not decode: {}", keys.cluster(), key, e.getMessage());
      }
    }
    return found;
  }

  /**
   * Marks shards {@code migrating} with {@code migration {id, to}}, in one transaction that
   * compares each shard key's mod revision and checks that each target node's entry exists. A shard
   * may be active, or already migrating or frozen under this migration to the same target (a
   * resumed migration copies it again from the start).
   *
   * @throws IllegalArgumentException if a target is the shard's leader or not a node id, a shard is
   *     being moved by another migration or to another target, a shard is given twice, or there are
   *     more than {@link #MAX_SHARDS_PER_TRANSACTION}
   * @throws MigrationConflictException if a shard key changed or a target node is not in the table
   */
  public ShardsWritten markMigrating(String migrationId, List<Target> targets) {
    requireMigrationId(migrationId);
    List<StoredShard> read = new ArrayList<>();
    List<ShardAssignment> written = new ArrayList<>();
    Set<String> targetNodes = new LinkedHashSet<>();
    for (Target target : targets) {
      ShardAssignment current = target.shard().assignment();
      if (!Node.ID_PATTERN.matcher(target.to()).matches()) {
        throw new IllegalArgumentException(
            "target of shard " + current.shard() + " must be a node id, was '" + target.to() + "'");
      }
      if (current.migration() != null
          && !(current.migration().id().equals(migrationId)
              && current.migration().to().equals(target.to()))) {
        throw busy(
            current, "cannot be moved to '" + target.to() + "' by migration '" + migrationId + "'");
      }
      if (current.leader().equals(target.to())) {
        throw new IllegalArgumentException(
            "shard " + current.shard() + " is led by '" + target.to() + "' already");
      }
      read.add(target.shard());
      written.add(
          new ShardAssignment(
              current.shard(),
              current.leader(),
              current.replicas(),
              current.epoch(),
              ShardState.MIGRATING,
              new ShardAssignment.Migration(migrationId, target.to())));
      targetNodes.add(target.to());
    }
    return writeShards("marking shards migrating for", migrationId, read, written, 0, targetNodes);
  }

  /**
   * Freezes a group of migrating shards ({@code state} frozen, same migration), in one transaction
   * that compares each shard key's mod revision and the lock's create revision. The returned
   * revision is the freeze revision: the cutover waits until every registered client's {@code
   * drained} is at least that.
   *
   * @param lockCreateRevision {@link MigrationLock#createRevision()} of the caller's lock
   * @throws IllegalArgumentException if a shard is not migrating (or frozen) under this migration
   * @throws MigrationConflictException if a shard key changed or the lock is not the same
   */
  public ShardsWritten freeze(
      String migrationId, Collection<StoredShard> shards, long lockCreateRevision) {
    return transition(
        "freezing shards of",
        migrationId,
        shards,
        lockCreateRevision,
        false,
        current ->
            new ShardAssignment(
                current.shard(),
                current.leader(),
                current.replicas(),
                current.epoch(),
                ShardState.FROZEN,
                current.migration()));
  }

  /**
   * Cuts a group of frozen shards over: one transaction that compares each shard key's mod revision
   * and the create revision of {@code migration-lock}, then puts each shard with {@code leader} the
   * migration's target, {@code epoch} + 1, {@code state} active and no {@code migration}. The
   * replicas stay, but the target leaves them if it was one (a leader is never its own replica).
   *
   * @throws IllegalArgumentException if a shard is not frozen under this migration
   * @throws MigrationConflictException if a shard key changed since the caller read it (for the
   *     entries {@link #freeze} returned: since the freeze), or the lock was released or taken
   *     again (its lease expired: clients went back to the old leader), or a target node is gone
   */
  public ShardsWritten cutOver(
      String migrationId, Collection<StoredShard> shards, long lockCreateRevision) {
    return transition(
        "cutover of",
        migrationId,
        shards,
        lockCreateRevision,
        true,
        current -> {
          if (current.state() != ShardState.FROZEN) {
            throw new IllegalArgumentException(
                "shard "
                    + current.shard()
                    + " is "
                    + current.state().wireName()
                    + ", not frozen: freeze it before the cutover");
          }
          String to = current.migration().to();
          List<String> replicas = new ArrayList<>(current.replicas());
          replicas.remove(to);
          return new ShardAssignment(
              current.shard(), to, replicas, current.epoch() + 1, ShardState.ACTIVE, null);
        });
  }

  /**
   * Gives a group of migrating or frozen shards up: the cutover's transaction with the old leader
   * and epoch, {@code state} active and no {@code migration}. Nothing moves; the target's partial
   * copy is the mover's to remove.
   *
   * @throws IllegalArgumentException if a shard is not migrating or frozen under this migration
   * @throws MigrationConflictException if a shard key changed or the lock is not the same
   */
  public ShardsWritten giveUp(
      String migrationId, Collection<StoredShard> shards, long lockCreateRevision) {
    return transition(
        "giving up shards of",
        migrationId,
        shards,
        lockCreateRevision,
        false,
        current ->
            new ShardAssignment(
                current.shard(),
                current.leader(),
                current.replicas(),
                current.epoch(),
                ShardState.ACTIVE,
                null));
  }

  private ShardsWritten transition(
      String verb,
      String migrationId,
      Collection<StoredShard> shards,
      long lockCreateRevision,
      boolean checkTargets,
      java.util.function.UnaryOperator<ShardAssignment> change) {
    requireMigrationId(migrationId);
    requirePositive(lockCreateRevision, "lockCreateRevision");
    List<StoredShard> read = new ArrayList<>(shards);
    List<ShardAssignment> written = new ArrayList<>();
    Set<String> targetNodes = new LinkedHashSet<>();
    for (StoredShard shard : read) {
      ShardAssignment current = shard.assignment();
      if (current.migration() == null || !current.migration().id().equals(migrationId)) {
        throw busy(current, "is not part of migration '" + migrationId + "'");
      }
      written.add(change.apply(current));
      if (checkTargets) {
        targetNodes.add(current.migration().to());
      }
    }
    return writeShards(verb, migrationId, read, written, lockCreateRevision, targetNodes);
  }

  private ShardsWritten writeShards(
      String verb,
      String migrationId,
      List<StoredShard> read,
      List<ShardAssignment> written,
      long lockCreateRevision,
      Set<String> targetNodes) {
    if (read.isEmpty()) {
      throw new IllegalArgumentException(verb + " migration '" + migrationId + "': no shard given");
    }
    if (read.size() > MAX_SHARDS_PER_TRANSACTION) {
      throw new IllegalArgumentException(
          verb
              + " migration '"
              + migrationId
              + "': "
              + read.size()
              + " shards, at most "
              + MAX_SHARDS_PER_TRANSACTION
              + " per transaction");
    }
    Set<Integer> seen = new LinkedHashSet<>();
    List<Cmp> compares = new ArrayList<>();
    List<Op> puts = new ArrayList<>();
    List<Op> gets = new ArrayList<>();
    long highest = 0;
    for (int i = 0; i < read.size(); i++) {
      StoredShard shard = read.get(i);
      if (!seen.add(shard.shard())) {
        throw new IllegalArgumentException("shard " + shard.shard() + " is given twice");
      }
      compares.add(EtcdCalls.modRevisionIs(shard.key(), shard.modRevision()));
      puts.add(
          Op.put(
              bytes(shard.key()),
              ByteSequence.from(TopologyCodec.encodeAssignment(written.get(i))),
              PutOption.DEFAULT));
      gets.add(Op.get(bytes(shard.key()), GetOption.builder().withKeysOnly(true).build()));
      highest = Math.max(highest, shard.modRevision());
    }
    if (lockCreateRevision > 0) {
      compares.add(
          new Cmp(
              bytes(keys.migrationLock()),
              Cmp.Op.EQUAL,
              CmpTarget.createRevision(lockCreateRevision)));
    }
    gets.add(Op.get(bytes(keys.migrationLock()), GetOption.builder().withKeysOnly(true).build()));
    List<String> nodeKeys = new ArrayList<>();
    for (String node : targetNodes) {
      String key = keys.node(node);
      nodeKeys.add(key);
      compares.add(new Cmp(bytes(key), Cmp.Op.GREATER, CmpTarget.createRevision(0)));
      gets.add(Op.get(bytes(key), GetOption.builder().withKeysOnly(true).build()));
    }
    String which = verb + " migration '" + migrationId + "' on cluster '" + keys.cluster() + "'";
    TxnResponse response =
        commit(
            kv.txn()
                .If(compares.toArray(Cmp[]::new))
                .Then(puts.toArray(Op[]::new))
                .Else(gets.toArray(Op[]::new)),
            which,
            highest);
    if (!response.isSucceeded()) {
      throw shardConflict(which, read, lockCreateRevision, nodeKeys, response, highest);
    }
    long revision = response.getHeader().getRevision();
    Map<Integer, StoredShard> result = new LinkedHashMap<>();
    for (int i = 0; i < read.size(); i++) {
      result.put(read.get(i).shard(), new StoredShard(read.get(i).key(), written.get(i), revision));
    }
    LOG.info(
        "cluster '{}': {} wrote {} shard(s) at revision {}",
        keys.cluster(),
        which,
        read.size(),
        revision);
    return new ShardsWritten(revision, result);
  }

  private MigrationConflictException shardConflict(
      String which,
      List<StoredShard> read,
      long lockCreateRevision,
      List<String> nodeKeys,
      TxnResponse response,
      long highest) {
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i < read.size(); i++) {
      List<KeyValue> found = response.getGetResponses().get(i).getKvs();
      long now = found.isEmpty() ? 0 : found.get(0).getModRevision();
      if (now != read.get(i).modRevision()) {
        reasons.add(
            read.get(i).key()
                + (now == 0 ? " is gone" : " changed at revision " + now)
                + " (expected mod revision "
                + read.get(i).modRevision()
                + ")");
      }
    }
    List<KeyValue> lock = response.getGetResponses().get(read.size()).getKvs();
    long lockNow = lock.isEmpty() ? 0 : lock.get(0).getCreateRevision();
    if (lockCreateRevision > 0 && lockNow != lockCreateRevision) {
      reasons.add(
          lockNow == 0
              ? "the migration lock is gone (expected create revision " + lockCreateRevision + ")"
              : "the migration lock was taken again (create revision "
                  + lockNow
                  + ", expected "
                  + lockCreateRevision
                  + ")");
    }
    for (int i = 0; i < nodeKeys.size(); i++) {
      if (response.getGetResponses().get(read.size() + 1 + i).getKvs().isEmpty()) {
        reasons.add("target node entry " + nodeKeys.get(i) + " is gone");
      }
    }
    if (reasons.isEmpty()) {
      reasons.add("a compared key changed and changed back");
    }
    return new MigrationConflictException(
        highest, which + " wrote nothing: " + String.join("; ", reasons));
  }

  private static IllegalArgumentException busy(ShardAssignment current, String what) {
    String state =
        current.migration() == null
            ? current.state().wireName()
            : current.state().wireName()
                + " under migration '"
                + current.migration().id()
                + "' to '"
                + current.migration().to()
                + "'";
    return new IllegalArgumentException("shard " + current.shard() + " (" + state + ") " + what);
  }

  // ---- the registry ----------------------------------------------------------------------------

  /** Every registration under {@code <root>/clients/} now, with the revision of the read. */
  public ClientRegistrySnapshot readClients() {
    GetResponse response =
        calls.read(
            kv.get(bytes(keys.clientsPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.clientsPrefix());
    return ClientRegistrySnapshot.of(keys, response.getHeader().getRevision(), response.getKvs());
  }

  /**
   * Watches the registry: {@code listener} gets the whole registry at once (after one listing),
   * then again after every revision that changes a registration. It runs on one thread of the
   * watch's own ({@code jumpgate-registry-<cluster>}), in revision order, never on a jetcd thread;
   * it must not block for long. A watch that breaks or finds its revision compacted lists again and
   * goes on from there (no revision is skipped; the listener may see the same registry twice).
   *
   * @return closes the watch; the listener is not called after {@code close()} returns
   */
  public AutoCloseable watchClients(Consumer<ClientRegistrySnapshot> listener) {
    return ClientRegistryWatch.start(client, keys, options, listener);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private TxnResponse commit(io.etcd.jetcd.Txn txn, String which, long readRevision) {
    return calls.commit(
        txn,
        which,
        "",
        ": it may or may not have been applied; read the keys again to know",
        readRevision,
        true);
  }

  private static String requireMigrationId(String migrationId) {
    Objects.requireNonNull(migrationId, "migrationId");
    if (!ShardMigration.ID_PATTERN.matcher(migrationId).matches()) {
      throw new IllegalArgumentException(
          "migration id must match "
              + ShardMigration.ID_PATTERN.pattern()
              + ", was '"
              + migrationId
              + "'");
    }
    return migrationId;
  }

  private static void requirePositive(long revision, String what) {
    if (revision < 1) {
      throw new IllegalArgumentException(what + " must be at least 1, was " + revision);
    }
  }

  private static ByteSequence bytes(String text) {
    return EtcdCalls.bytes(text);
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }
}
