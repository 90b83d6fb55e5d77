package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyConflictException;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.TopologyAdminException.Reason;
import io.jumpgate.topology.TopologyAdminPlan.KeyCheck;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import io.jumpgate.topology.internal.EtcdClients;
import io.jumpgate.topology.internal.KeyChange;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes one cluster's shard map in etcd: {@code init}, add and remove a node, move a shard's
 * leadership, fail over a shard or every shard a node leads, rebalance. What the CLI's admin verbs
 * ({@code jumpgate init}, {@code add-node}, {@code remove-node}, {@code move-shard}, {@code
 * failover}, {@code rebalance}) call.
 *
 * <h2>Plans are data</h2>
 *
 * <p>Every change is two calls. {@code planXxx(...)} reads the map ({@link #read()}) and returns a
 * {@link TopologyAdminPlan}: the {@link PlacementPlanner}'s plan, the node entries added or
 * removed, and every key write with the mod revision it was read at. Nothing is written. The caller
 * prints {@link TopologyAdminPlan#describe()} and, on request, calls {@link #apply}, which writes
 * exactly the plan's key writes. Leader changes bump the shard's epoch by one: the planner does it
 * ({@link ShardAssignment#withNodes}), the admin writes what the plan says.
 *
 * <h2>Compare-and-set</h2>
 *
 * <p>{@link #apply} writes in etcd transactions, each of which compares the mod revision of every
 * key it writes with the one the plan read ({@code create_revision == 0} for a key that must not
 * exist, such as a new node). If any differs, that transaction writes nothing and {@code apply}
 * throws a {@link TopologyAdminConflictException} ("the map changed since it was read (revision R);
 * run again"), a {@link TopologyConflictException}. Two operators can never interleave their
 * changes of one key.
 *
 * <p>Two guards go beyond the keys a plan writes, so that no shard ends up naming a node missing
 * from the table:
 *
 * <ul>
 *   <li>Each transaction also compares the mod revision of every node entry that the shards it
 *       writes name ({@link TopologyAdminPlan#checks()}): a plan that gives a shard to a node that
 *       was removed (or re-addressed) since the read loses.
 *   <li>Before the transaction that deletes a node entry (remove-node's last), {@code apply} reads
 *       the shards and loses if one that the transaction does not rewrite names the node: another
 *       operator gave it a shard since the read. etcd cannot compare "no key names this node", so
 *       this check leaves a window of one round trip between the read and the transaction.
 * </ul>
 *
 * <p><b>Large plans are applied in batches.</b> etcd refuses a transaction of more than {@code
 * --max-txn-ops} operations (128 by default), so a plan of more than {@link
 * TopologyAdminOptions#maxOperationsPerTransaction()} (100) key writes (or compares) is applied in
 * several transactions, in the plan's order: new nodes first, then shards in ascending order,
 * removed nodes last, so that every transaction leaves a valid map (no shard names a node missing
 * from the table). Each transaction is atomic and compare-and-set on its own keys. Before the first
 * of several, {@code apply} reads the map again and checks every key of the plan, so a change made
 * since the plan was computed fails with nothing written. A change that slips in while the batches
 * are written makes a later batch lose: the earlier batches stay applied, the exception says how
 * many ({@link TopologyAdminConflictException#appliedTransactions()}), and planning and applying
 * again finishes the change (an interrupted add-node is finished by adding the same node again).
 * Readers see each batch as one revision.
 *
 * <h2>init</h2>
 *
 * <p>{@link #init} creates a cluster that readers see whole or not at all, whatever its size, and
 * only if it does not exist. Readers ignore a root without {@code meta} ("not initialised"), so
 * meta is written last, in the transaction that completes the map:
 *
 * <ol>
 *   <li><b>Claim.</b> One transaction: if {@code create_revision(<root>/meta) == 0} and {@code
 *       create_revision(<root>/init-lock) == 0}, put {@code <root>/init-lock} (a random token, with
 *       the host, pid and time, under a lease of {@link TopologyAdminOptions#initLockTtl()}), and
 *       delete everything under {@code <root>/nodes/} and {@code <root>/shards/}: the leftovers of
 *       an earlier init that died halfway. Otherwise it fails with {@link
 *       Reason#ALREADY_INITIALISED} ("cluster 'x' is already initialised (revision R)") or {@link
 *       Reason#INIT_IN_PROGRESS}.
 *   <li><b>Batches.</b> Nodes, then shards, at most {@code maxOperationsPerTransaction} puts per
 *       transaction, each only if {@code value(<root>/init-lock)} is still this init's token. The
 *       lease is renewed as they go.
 *   <li><b>Last.</b> One transaction: if the lock still holds the token and {@code meta} still does
 *       not exist, put the last nodes and shards that fit, put {@code meta}, delete the lock.
 * </ol>
 *
 * <p>Hence the map appears whole at the revision of meta. Two concurrent inits cannot mix: only one
 * claims the lock; the other fails before writing anything. If an init dies, its lock expires with
 * the lease and the next init deletes what it wrote. If it stalls past its lease and another init
 * claims the cluster, every later write of the first fails its token compare ({@link
 * Reason#INIT_INTERRUPTED}). A cluster small enough for one transaction takes two: claim and last.
 * The {@code init-lock} key is outside the schema, so readers ignore it ({@link TopologyKeys#parse}
 * calls it {@link TopologyKeys.Kind#OTHER}).
 *
 * <h2>Calls and threads</h2>
 *
 * <p>Every method blocks the calling thread until etcd answers, and every etcd call is bounded by
 * {@link EtcdTopologyOptions#requestTimeout()}; no callback runs on a jetcd thread. Do not call
 * these methods from a jetcd callback. A read that fails throws {@link
 * TopologyUnavailableException}; a write that gets no answer throws {@link TopologyAdminException}
 * with {@link Reason#OUTCOME_UNKNOWN}: it may or may not have been applied, read the map to know.
 * Transactions are never retried (a retried compare-and-set would lose against itself).
 *
 * <p>Thread-safe; {@link #close()} closes the jetcd client if the admin created it.
 */
public final class TopologyAdmin implements AutoCloseable {

  /**
   * Told after each committed transaction of {@link #apply} or {@link #init}, on the calling
   * thread, before the next one is sent. An exception thrown here stops the change: the
   * transactions committed so far stay.
   */
  @FunctionalInterface
  public interface Progress {

    /** Does nothing. */
    Progress NONE = (transaction, transactions, revision) -> {};

    /**
     * @param transaction the number of the transaction just committed, from 1
     * @param transactions how many the change has in all
     * @param revision the etcd revision it committed at
     */
    void committed(int transaction, int transactions, long revision);
  }

  private static final Logger LOG = LoggerFactory.getLogger(TopologyAdmin.class);

  /** The key under the root that an init in progress holds: {@code <root>/init-lock}. */
  static final String INIT_LOCK = "init-lock";

  private final EtcdTopologyOptions options;
  private final TopologyAdminOptions adminOptions;
  private final TopologyKeys keys;
  private final Client client;
  private final boolean ownsClient;
  private final KV kv;
  private final long timeoutNanos;
  private final EtcdCalls calls;

  private TopologyAdmin(
      EtcdTopologyOptions options,
      TopologyAdminOptions adminOptions,
      Client client,
      boolean ownsClient) {
    this.options = Objects.requireNonNull(options, "options");
    this.adminOptions = Objects.requireNonNull(adminOptions, "adminOptions");
    this.keys = TopologyKeys.forCluster(options.cluster());
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.kv = client.getKVClient();
    this.timeoutNanos = options.requestTimeout().toNanos();
    this.calls = new EtcdCalls(options);
  }

  /** An admin with its own jetcd client (closed with it) and the default admin options. */
  public static TopologyAdmin create(EtcdTopologyOptions options) {
    return create(options, TopologyAdminOptions.defaults());
  }

  /** An admin with its own jetcd client, closed with it. */
  public static TopologyAdmin create(
      EtcdTopologyOptions options, TopologyAdminOptions adminOptions) {
    Objects.requireNonNull(adminOptions, "adminOptions");
    return new TopologyAdmin(options, adminOptions, EtcdClients.create(options), true);
  }

  /**
   * An admin that shares a jetcd client built elsewhere (for the options' endpoints and
   * credentials), with the default admin options; the client is not closed with the admin.
   */
  public static TopologyAdmin create(EtcdTopologyOptions options, Client client) {
    return create(options, TopologyAdminOptions.defaults(), client);
  }

  /** An admin that shares a jetcd client; the client is not closed with the admin. */
  public static TopologyAdmin create(
      EtcdTopologyOptions options, TopologyAdminOptions adminOptions, Client client) {
    return new TopologyAdmin(options, adminOptions, client, false);
  }

  /** The cluster this admin changes. */
  public String cluster() {
    return keys.cluster();
  }

  /** The admin options. */
  public TopologyAdminOptions adminOptions() {
    return adminOptions;
  }

  // ---- reading -------------------------------------------------------------------------------

  /**
   * The map as etcd has it now: one linearizable ranged GET of {@code /jumpgate/<cluster>/}.
   *
   * @throws TopologyUnavailableException if etcd cannot be read, or the cluster is not initialised
   *     ("cluster 'x' is not initialised at /jumpgate/x — run `jumpgate init`")
   * @throws IncompatibleTopologyException if the meta is invalid, newer or of another routing
   */
  public TopologyAdminState read() {
    GetResponse response =
        read(
            kv.get(bytes(keys.rootPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.rootPrefix());
    List<KeyChange> entries = new ArrayList<>(response.getKvs().size());
    for (KeyValue keyValue : response.getKvs()) {
      entries.add(
          new KeyChange(
              keyValue.getKey().toString(StandardCharsets.UTF_8),
              keyValue.getValue().getBytes(),
              keyValue.getModRevision()));
    }
    return TopologyAdminState.decode(keys, response.getHeader().getRevision(), entries);
  }

  // ---- planning ------------------------------------------------------------------------------

  /**
   * The plan of {@link #init}: the initial placement ({@link PlacementPlanner#initial}), every node
   * and shard entry, and the meta. Reads etcd once, to fail early when the cluster exists.
   *
   * @param nodes the node table by node id
   * @param shards the number of shards, 1 to 65536, fixed for the life of the cluster
   * @param replicas the number of replicas of each shard
   * @throws TopologyAdminException with {@link Reason#ALREADY_INITIALISED} if meta exists
   * @throws PlacementException if there are fewer than {@code replicas + 1} nodes
   * @throws IllegalArgumentException if {@code shards} or {@code replicas} is out of range, or a
   *     node table key is not its node's id
   */
  public TopologyAdminPlan planInit(Map<String, Node> nodes, int shards, int replicas) {
    Plan plan = PlacementPlanner.initial(nodes, shards, replicas);
    TxnResponse response =
        read(
            kv.txn()
                .Then(
                    Op.get(bytes(keys.meta()), GetOption.DEFAULT),
                    Op.get(bytes(initLockKey(keys)), GetOption.DEFAULT))
                .commit(),
            "reading " + keys.meta());
    List<KeyValue> meta = response.getGetResponses().get(0).getKvs();
    if (!meta.isEmpty()) {
      throw alreadyInitialised(meta.get(0).getCreateRevision());
    }
    return initPlan(keys, response.getHeader().getRevision(), nodes, shards, plan, adminOptions);
  }

  /**
   * Adds a node and moves leaderships, then replica slots, onto it until it is within one of the
   * most loaded node ({@link PlacementPlanner#addNode}): about {@code shards / (N + 1)}
   * leaderships. The node entry is written first (compared absent), in the first transaction.
   *
   * <p>A node already in the table with the same address, zone, tags and tls is not written again:
   * the plan only moves shards onto it, which finishes an add-node that was interrupted.
   *
   * @throws PlacementException if a node of that id exists with another address or settings
   */
  public TopologyAdminPlan planAddNode(Node node) {
    return addNodePlan(keys, read(), node, adminOptions);
  }

  /**
   * Writes only a node's entry: the node joins the table leading and replicating nothing. The first
   * step of an add-node whose data follows the map (the migration mover needs the target in the
   * node table before it moves shards onto it). A node already in the table with the same settings
   * gives a plan that changes nothing.
   *
   * @throws PlacementException if a node of that id exists with another address or settings
   */
  public TopologyAdminPlan planAddNodeEntry(Node node) {
    return addNodeEntryPlan(keys, read(), node, adminOptions);
  }

  /**
   * Removes a node: each shard it leads fails over to a replica (or, without replica, to the node
   * with the fewest leaderships), each replica slot it holds goes to another node ({@link
   * PlacementPlanner#removeNode}); the node entry is deleted in the last transaction, after every
   * shard that named it was rewritten.
   *
   * @throws PlacementException if the node is unknown, or holds shards and no other node exists
   */
  public TopologyAdminPlan planRemoveNode(String nodeId) {
    return removeNodePlan(keys, read(), nodeId, adminOptions);
  }

  /**
   * Moves one shard's leadership to a node ({@link PlacementPlanner#moveLeader}): a swap when the
   * node is a replica of the shard, else the node replaces the leader. Only the map changes: the
   * shard's data must be on the new leader first (see docs/operations.md).
   *
   * @throws IllegalArgumentException if the shard is not in {@code [0, shards)}
   * @throws PlacementException if the shard is unassigned or the node not in the node table
   */
  public TopologyAdminPlan planMoveShard(int shard, String toNodeId) {
    return moveShardPlan(keys, read(), shard, toNodeId, adminOptions);
  }

  /**
   * Fails one shard over: {@code toNodeId}, which must be one of its replicas, or when null the
   * replica the planner picks, becomes the leader; the old leader leaves the shard and another node
   * becomes a replica ({@link PlacementPlanner#failoverShard}). The epoch goes up by one.
   *
   * @throws IllegalArgumentException if the shard is not in {@code [0, shards)}
   * @throws PlacementException if the shard has no replica, or {@code toNodeId} is not one
   */
  public TopologyAdminPlan planFailoverShard(int shard, String toNodeIdOrNull) {
    return failoverShardPlan(keys, read(), shard, toNodeIdOrNull, adminOptions);
  }

  /**
   * Fails over every shard a node leads ({@link PlacementPlanner#failoverNode}); its replica slots
   * stay (use remove-node to hand them over too). With {@code toNodeId}, that node takes over every
   * one of those shards, so it must be a replica of each of them; without, the planner picks a
   * replica per shard, spreading the leaderships.
   *
   * @throws PlacementException if the node is unknown, leads a shard without replica, or {@code
   *     toNodeId} is not a replica of every shard it leads (the message names the first)
   */
  public TopologyAdminPlan planFailoverNode(String nodeId, String toNodeIdOrNull) {
    return failoverNodePlan(keys, read(), nodeId, toNodeIdOrNull, adminOptions);
  }

  /**
   * Evens out leaderships to at most one apart with the fewest moves, then replica slots ({@link
   * PlacementPlanner#rebalance}).
   */
  public TopologyAdminPlan planRebalance() {
    return rebalancePlan(keys, read(), adminOptions);
  }

  // ---- applying ------------------------------------------------------------------------------

  /** {@link #apply(TopologyAdminPlan, Progress)} without progress reports. */
  public TopologyAdminResult apply(TopologyAdminPlan plan) {
    return apply(plan, Progress.NONE);
  }

  /**
   * Writes a plan computed by this or another admin of the same cluster, in the transactions the
   * class documentation describes; an {@code init} plan with the init protocol (see {@link #init}).
   * A plan that changes nothing writes nothing.
   *
   * @param progress told after each committed transaction
   * @return the revisions written
   * @throws TopologyAdminConflictException (a {@link TopologyConflictException}) if a key changed
   *     since the plan was read: the transaction that lost wrote nothing
   * @throws TopologyAdminException if an init cannot proceed, etcd refused a transaction, or its
   *     outcome is unknown
   * @throws TopologyUnavailableException if etcd cannot be reached or refuses access before
   *     anything was written
   * @throws IllegalArgumentException if the plan is of another cluster
   */
  public TopologyAdminResult apply(TopologyAdminPlan plan, Progress progress) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(progress, "progress");
    requireOwnCluster(plan);
    if (plan.initialises()) {
      return runInit(plan, progress);
    }
    String operation = plan.plan().operation();
    if (plan.writes().isEmpty()) {
      return new TopologyAdminResult(
          keys.cluster(), operation, plan.mapRevision(), plan.mapRevision(), List.of(), 0, 0);
    }
    List<TopologyAdminWrites.Batch> batches =
        TopologyAdminWrites.batches(
            keys,
            plan.writes(),
            plan.checks(),
            adminOptions.maxOperationsPerTransaction(),
            adminOptions.maxBytesPerTransaction());
    if (batches.size() > 1) {
      verifyUnchanged(plan, batches.size());
    }
    List<Long> revisions = new ArrayList<>();
    long last = plan.mapRevision();
    for (int index = 0; index < batches.size(); index++) {
      TopologyAdminWrites.Batch batch = batches.get(index);
      verifyNoOtherReference(plan, batch, index, batches.size(), last);
      List<Cmp> compares = new ArrayList<>(batch.compares());
      List<Op> operations = new ArrayList<>(batch.writes().size());
      for (KeyWrite write : batch.writes()) {
        compares.add(expected(write));
        operations.add(operation(write));
      }
      for (KeyCheck check : batch.checks()) {
        compares.add(
            new Cmp(
                bytes(check.key()),
                Cmp.Op.EQUAL,
                CmpTarget.modRevision(check.expectedModRevision())));
      }
      TxnResponse response =
          commit(
              kv.txn().If(compares.toArray(Cmp[]::new)).Then(operations.toArray(Op[]::new)),
              operation,
              plan.readRevision(),
              index,
              batches.size());
      if (!response.isSucceeded()) {
        LOG.info(
            "cluster '{}': {} lost its compare-and-set in transaction {} of {} (read at revision"
                + " {})",
            keys.cluster(),
            operation,
            index + 1,
            batches.size(),
            plan.readRevision());
        throw new TopologyAdminConflictException(plan.mapRevision(), index, batches.size(), last);
      }
      last = response.getHeader().getRevision();
      revisions.add(last);
      progress.committed(index + 1, batches.size(), last);
    }
    LOG.info(
        "cluster '{}': {} applied at revision {} ({} keys in {} transaction(s), read at {})",
        keys.cluster(),
        operation,
        last,
        plan.writes().size(),
        batches.size(),
        plan.readRevision());
    return new TopologyAdminResult(
        keys.cluster(), operation, plan.mapRevision(), last, revisions, plan.writes().size(), 0);
  }

  /** {@link #init(Map, int, int, Progress)} without progress reports. */
  public TopologyAdminResult init(Map<String, Node> nodes, int shards, int replicas) {
    return init(nodes, shards, replicas, Progress.NONE);
  }

  /**
   * Creates the cluster: {@link #planInit}, then {@link #apply} of that plan, with the protocol of
   * the class documentation (claim with a lock, batches, meta last). Readers see nothing until the
   * revision of meta, and then the whole map.
   *
   * @return {@link TopologyAdminResult#revision()} is the revision of meta
   * @throws TopologyAdminException with {@link Reason#ALREADY_INITIALISED} ("cluster 'x' is already
   *     initialised (revision R)"), {@link Reason#INIT_IN_PROGRESS}, {@link
   *     Reason#INIT_INTERRUPTED}, {@link Reason#REJECTED} or {@link Reason#OUTCOME_UNKNOWN}
   * @throws PlacementException if there are too few nodes for the replicas
   */
  public TopologyAdminResult init(
      Map<String, Node> nodes, int shards, int replicas, Progress progress) {
    return apply(planInit(nodes, shards, replicas), progress);
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  // ---- init protocol -------------------------------------------------------------------------

  private TopologyAdminResult runInit(TopologyAdminPlan plan, Progress progress) {
    TopologyAdminWrites.InitBatches batches =
        TopologyAdminWrites.initBatches(
            plan.writes(),
            keys,
            adminOptions.maxOperationsPerTransaction(),
            adminOptions.maxBytesPerTransaction());
    int transactions = batches.transactions();
    String operation = plan.plan().operation();
    ByteSequence lockKey = bytes(initLockKey(keys));
    ByteSequence lockValue = ByteSequence.from(lockValue());
    ByteSequence metaKey = bytes(keys.meta());
    long ttlSeconds = Math.max(2, adminOptions.initLockTtl().toSeconds());
    Lease leases = client.getLeaseClient();
    long leaseId =
        read(leases.grant(ttlSeconds), "granting a lease for " + initLockKey(keys)).getID();
    boolean succeeded = false;
    try {
      // 1. Claim: only if there is no meta and no other init; remove an interrupted init's keys.
      TxnResponse claim =
          commit(
              kv.txn()
                  .If(
                      new Cmp(metaKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)),
                      new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                  .Then(
                      Op.put(lockKey, lockValue, PutOption.builder().withLeaseId(leaseId).build()),
                      Op.delete(
                          bytes(keys.nodesPrefix()), DeleteOption.builder().isPrefix(true).build()),
                      Op.delete(
                          bytes(keys.shardsPrefix()),
                          DeleteOption.builder().isPrefix(true).build()))
                  .Else(Op.get(metaKey, GetOption.DEFAULT), Op.get(lockKey, GetOption.DEFAULT)),
              operation,
              plan.readRevision(),
              0,
              transactions,
              true);
      if (!claim.isSucceeded()) {
        throw claimRefused(claim, leases);
      }
      long leftovers = 0;
      for (DeleteResponse deleted : claim.getDeleteResponses()) {
        leftovers += deleted.getDeleted();
      }
      long last = claim.getHeader().getRevision();
      List<Long> revisions = new ArrayList<>();
      revisions.add(last);
      LOG.info(
          "cluster '{}': init holds {} at revision {}{}",
          keys.cluster(),
          initLockKey(keys),
          last,
          leftovers == 0 ? "" : " and deleted " + leftovers + " keys left by an interrupted init");
      progress.committed(1, transactions, last);
      long renewedAt = System.nanoTime();
      long renewEvery = adminOptions.initLockTtl().toNanos() / 3;
      Cmp stillOurs = new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.value(lockValue));

      // 2. Batches, each only while the lock is ours.
      int index = 1;
      for (List<KeyWrite> batch : batches.middle()) {
        renewedAt = renewIfDue(leases, leaseId, renewedAt, renewEvery);
        TxnResponse response =
            commit(
                kv.txn().If(stillOurs).Then(puts(batch)),
                operation,
                plan.readRevision(),
                index,
                transactions,
                true);
        if (!response.isSucceeded()) {
          throw initInterrupted(index, transactions, last);
        }
        last = response.getHeader().getRevision();
        revisions.add(last);
        index++;
        progress.committed(index, transactions, last);
      }

      // 3. Last: the rest, meta, and the lock released, in one revision.
      renewIfDue(leases, leaseId, renewedAt, renewEvery);
      List<Op> finalOperations = new ArrayList<>(List.of(puts(batches.last())));
      finalOperations.add(
          Op.put(
              metaKey,
              ByteSequence.from(TopologyAdminWrites.metaValue(plan.metadata())),
              PutOption.DEFAULT));
      finalOperations.add(Op.delete(lockKey, DeleteOption.DEFAULT));
      TxnResponse response =
          commit(
              kv.txn()
                  .If(stillOurs, new Cmp(metaKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                  .Then(finalOperations.toArray(Op[]::new))
                  .Else(Op.get(metaKey, GetOption.DEFAULT)),
              operation,
              plan.readRevision(),
              index,
              transactions,
              true);
      if (!response.isSucceeded()) {
        List<KeyValue> meta = response.getGetResponses().get(0).getKvs();
        if (!meta.isEmpty()) {
          throw alreadyInitialised(meta.get(0).getCreateRevision());
        }
        throw initInterrupted(index, transactions, last);
      }
      last = response.getHeader().getRevision();
      revisions.add(last);
      succeeded = true;
      LOG.info(
          "cluster '{}' initialised at revision {}: {} shards, {} nodes, {} transactions",
          keys.cluster(),
          last,
          plan.metadata().shards(),
          plan.nodeChanges().size(),
          transactions);
      progress.committed(transactions, transactions, last);
      return new TopologyAdminResult(
          keys.cluster(),
          operation,
          plan.mapRevision(),
          last,
          revisions,
          plan.keysToWrite(),
          leftovers);
    } finally {
      // On success the lock is already deleted; on failure this releases it at once.
      revokeQuietly(leases, leaseId, succeeded);
    }
  }

  private Op[] puts(List<KeyWrite> batch) {
    Op[] operations = new Op[batch.size()];
    for (int i = 0; i < batch.size(); i++) {
      operations[i] = operation(batch.get(i));
    }
    return operations;
  }

  private long renewIfDue(Lease leases, long leaseId, long renewedAt, long renewEvery) {
    long now = System.nanoTime();
    if (now - renewedAt < renewEvery) {
      return renewedAt;
    }
    try {
      leases.keepAliveOnce(leaseId).get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopologyAdminException(
          Reason.OUTCOME_UNKNOWN,
          0,
          "init of cluster '" + keys.cluster() + "' was interrupted; it is not initialised",
          e);
    } catch (ExecutionException | TimeoutException e) {
      // The next transaction's token compare tells whether the lock is still ours.
      LOG.warn(
          "cluster '{}': renewing the init lock's lease failed: {}",
          keys.cluster(),
          EtcdClients.describe(e));
    }
    return now;
  }

  private void revokeQuietly(Lease leases, long leaseId, boolean succeeded) {
    try {
      leases.revoke(leaseId).get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      if (!succeeded) {
        LOG.warn(
            "cluster '{}': could not release {} ({}); it expires within {} s",
            keys.cluster(),
            initLockKey(keys),
            EtcdClients.describe(e),
            adminOptions.initLockTtl().toSeconds());
      }
    }
  }

  private TopologyAdminException claimRefused(TxnResponse claim, Lease leases) {
    List<KeyValue> meta = claim.getGetResponses().get(0).getKvs();
    if (!meta.isEmpty()) {
      return alreadyInitialised(meta.get(0).getCreateRevision());
    }
    List<KeyValue> lock = claim.getGetResponses().get(1).getKvs();
    long revision = lock.isEmpty() ? claim.getHeader().getRevision() : lock.get(0).getModRevision();
    String holder = lock.isEmpty() ? "?" : lock.get(0).getValue().toString(StandardCharsets.UTF_8);
    String expiry;
    if (lock.isEmpty()) {
      expiry = "";
    } else if (lock.get(0).getLease() == 0) {
      expiry = "; it has no lease: if no init is running, delete the key";
    } else {
      expiry = "; if that init died, its lock expires" + remainingTtl(leases, lock.get(0));
    }
    return new TopologyAdminException(
        Reason.INIT_IN_PROGRESS,
        revision,
        "cluster '"
            + keys.cluster()
            + "' is being initialised by another init: "
            + initLockKey(keys)
            + " was written at revision "
            + revision
            + " by "
            + holder
            + expiry,
        null);
  }

  private String remainingTtl(Lease leases, KeyValue lock) {
    try {
      long ttl =
          leases
              .timeToLive(lock.getLease(), LeaseOption.DEFAULT)
              .get(timeoutNanos, TimeUnit.NANOSECONDS)
              .getTTL();
      return ttl > 0 ? " within " + ttl + " s" : " at once";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return " with its lease";
    } catch (ExecutionException | TimeoutException e) {
      return " with its lease";
    }
  }

  private TopologyAdminException alreadyInitialised(long revision) {
    return new TopologyAdminException(
        Reason.ALREADY_INITIALISED,
        revision,
        "cluster '" + keys.cluster() + "' is already initialised (revision " + revision + ")",
        null);
  }

  private TopologyAdminException initInterrupted(int committed, int transactions, long last) {
    return new TopologyAdminException(
        Reason.INIT_INTERRUPTED,
        last,
        "init of cluster '"
            + keys.cluster()
            + "' lost "
            + initLockKey(keys)
            + " after "
            + committed
            + " of "
            + transactions
            + " transactions (the lock expired or was deleted, and maybe another init took it):"
            + " the cluster is not initialised by this init; run `jumpgate init` again if it is"
            + " still not initialised",
        null);
  }

  private byte[] lockValue() {
    String token = UUID.randomUUID().toString();
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException | SecurityException e) {
      host = "unknown";
    }
    String finalHost = host;
    long pid = ProcessHandle.current().pid();
    String since = Instant.now().toString();
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeStringField("token", token);
          generator.writeStringField("host", finalHost);
          generator.writeNumberField("pid", pid);
          generator.writeStringField("since", since);
          generator.writeEndObject();
        });
  }

  // ---- apply helpers -------------------------------------------------------------------------

  private void requireOwnCluster(TopologyAdminPlan plan) {
    if (!plan.cluster().equals(keys.cluster())) {
      throw new IllegalArgumentException(
          "the plan is for cluster '"
              + plan.cluster()
              + "', this admin changes cluster '"
              + keys.cluster()
              + "'");
    }
    for (KeyWrite write : plan.writes()) {
      if (!write.key().startsWith(keys.rootPrefix())) {
        throw new IllegalArgumentException(
            "the plan writes " + write.key() + ", outside " + keys.rootPrefix());
      }
    }
  }

  /**
   * Before a plan of several transactions: every key it writes or checks must still be as the plan
   * read it, so that a change made since the plan fails with nothing written.
   */
  private void verifyUnchanged(TopologyAdminPlan plan, int transactions) {
    GetResponse response =
        read(
            kv.get(
                bytes(keys.rootPrefix()),
                GetOption.builder().isPrefix(true).withKeysOnly(true).build()),
            "reading " + keys.rootPrefix());
    Map<String, Long> now = new HashMap<>();
    for (KeyValue keyValue : response.getKvs()) {
      now.put(keyValue.getKey().toString(StandardCharsets.UTF_8), keyValue.getModRevision());
    }
    Map<String, Long> expected = new TreeMap<>();
    plan.writes().forEach(write -> expected.put(write.key(), write.expectedModRevision()));
    plan.checks().forEach(check -> expected.put(check.key(), check.expectedModRevision()));
    for (Map.Entry<String, Long> entry : expected.entrySet()) {
      long found = now.getOrDefault(entry.getKey(), 0L);
      if (found != entry.getValue()) {
        LOG.info(
            "cluster '{}': {} changed since revision {} (mod revision {} -> {}); nothing written",
            keys.cluster(),
            entry.getKey(),
            plan.readRevision(),
            entry.getValue(),
            found);
        throw new TopologyAdminConflictException(
            plan.mapRevision(), 0, transactions, plan.mapRevision());
      }
    }
  }

  /**
   * Before a transaction that deletes a node entry: no shard that the transaction does not rewrite
   * may name the node (another operator may have given it a shard since the plan was read; etcd
   * cannot compare "no key names it"). Leaves a window of one round trip.
   */
  private void verifyNoOtherReference(
      TopologyAdminPlan plan,
      TopologyAdminWrites.Batch batch,
      int index,
      int transactions,
      long last) {
    Set<String> deleted = new HashSet<>();
    Set<String> rewritten = new HashSet<>();
    for (KeyWrite write : batch.writes()) {
      rewritten.add(write.key());
      if (write.deletes() && keys.parse(write.key()).kind() == TopologyKeys.Kind.NODE) {
        deleted.add(keys.parse(write.key()).name());
      }
    }
    if (deleted.isEmpty()) {
      return;
    }
    GetResponse response =
        read(
            kv.get(bytes(keys.shardsPrefix()), GetOption.builder().isPrefix(true).build()),
            "reading " + keys.shardsPrefix());
    for (KeyValue keyValue : response.getKvs()) {
      String key = keyValue.getKey().toString(StandardCharsets.UTF_8);
      TopologyKeys.ParsedKey parsed = keys.parse(key);
      if (rewritten.contains(key) || parsed.shard() < 0) {
        continue;
      }
      ShardAssignment assignment;
      try {
        assignment = TopologyCodec.decodeAssignment(parsed.shard(), keyValue.getValue().getBytes());
      } catch (TopologyEntryException e) {
        continue;
      }
      for (String nodeId : deleted) {
        if (assignment.names(nodeId)) {
          LOG.info(
              "cluster '{}': {} names node '{}' since revision {}, after the plan read revision"
                  + " {}; the node is not deleted",
              keys.cluster(),
              key,
              nodeId,
              keyValue.getModRevision(),
              plan.readRevision());
          throw new TopologyAdminConflictException(plan.mapRevision(), index, transactions, last);
        }
      }
    }
  }

  private static Cmp expected(KeyWrite write) {
    return EtcdCalls.expected(write);
  }

  private static Op operation(KeyWrite write) {
    return EtcdCalls.operation(write);
  }

  // ---- etcd calls ----------------------------------------------------------------------------

  private <T> T read(CompletableFuture<T> call, String what) {
    return calls.read(call, what);
  }

  /** Commits one transaction of a change (not of init). */
  private TxnResponse commit(
      Txn txn, String operation, long readRevision, int index, int transactions) {
    return commit(txn, operation, readRevision, index, transactions, false);
  }

  /**
   * Commits one transaction; every failure but a definite refusal has an unknown outcome.
   *
   * @param init whether it is a transaction of init, whose earlier transactions are invisible
   */
  private TxnResponse commit(
      Txn txn, String operation, long readRevision, int index, int transactions, boolean init) {
    String which =
        "transaction "
            + (index + 1)
            + " of "
            + transactions
            + " of "
            + operation
            + " on cluster '"
            + keys.cluster()
            + "'";
    String before =
        index == 0 || init ? "" : " (the " + index + " transaction(s) before it were applied)";
    String next =
        init
            ? ": it may or may not have been applied; if `jumpgate topology show` says the cluster"
                + " is not initialised, run init again (this init's lock is released, or expires"
                + " within "
                + adminOptions.initLockTtl().toSeconds()
                + " s)"
            : ": it may or may not have been applied; read the map (`jumpgate topology show`) and"
                + " plan again";
    return calls.commit(txn, which, before, next, readRevision, index == 0);
  }

  static ByteSequence bytes(String text) {
    return EtcdCalls.bytes(text);
  }

  /** {@code <root>/init-lock}. */
  static String initLockKey(TopologyKeys keys) {
    return keys.rootPrefix() + INIT_LOCK;
  }

  // ---- pure planning, testable without etcd ----------------------------------------------------

  static TopologyAdminPlan initPlan(
      TopologyKeys keys,
      long readRevision,
      Map<String, Node> nodes,
      int shards,
      Plan plan,
      TopologyAdminOptions adminOptions) {
    TopologyMetadata metadata = TopologyMetadata.of(shards);
    List<KeyWrite> writes = TopologyAdminWrites.initWrites(keys, nodes, plan);
    List<NodeChange> nodeChanges = new ArrayList<>();
    new TreeMap<>(nodes).forEach((id, node) -> nodeChanges.add(new NodeChange(id, node)));
    int transactions =
        TopologyAdminWrites.initBatches(
                writes,
                keys,
                adminOptions.maxOperationsPerTransaction(),
                adminOptions.maxBytesPerTransaction())
            .transactions();
    return new TopologyAdminPlan(
        keys.cluster(),
        readRevision,
        0,
        plan,
        metadata,
        nodeChanges,
        writes,
        List.of(),
        transactions);
  }

  /** An add-node's placement and its node entry, before any check of the shards it touches. */
  private record AddNodePlacement(Plan plan, List<NodeChange> nodeChanges) {}

  static TopologyAdminPlan addNodePlan(
      TopologyKeys keys, TopologyAdminState state, Node node, TopologyAdminOptions adminOptions) {
    AddNodePlacement placement = addNodePlacement(state, node);
    return changePlan(keys, state, placement.plan(), placement.nodeChanges(), adminOptions);
  }

  private static AddNodePlacement addNodePlacement(TopologyAdminState state, Node node) {
    Objects.requireNonNull(node, "node");
    Node existing = state.nodes().get(node.id());
    List<NodeChange> nodeChanges = new ArrayList<>();
    Map<String, Node> nodes = new TreeMap<>(state.nodes());
    if (existing == null) {
      nodeChanges.add(new NodeChange(node.id(), node));
      nodes.put(node.id(), node);
    } else if (!existing.equals(node)) {
      throw new PlacementException(
          "node '"
              + node.id()
              + "' is already in the node table, at "
              + existing.address()
              + (existing.zone() == null ? "" : " in zone " + existing.zone())
              + "; remove it first, or add the new node under another id",
          -1,
          node.id());
    }
    return new AddNodePlacement(
        PlacementPlanner.addNode(state.assignments(), nodes, node.id()), nodeChanges);
  }

  static TopologyAdminPlan addNodeEntryPlan(
      TopologyKeys keys, TopologyAdminState state, Node node, TopologyAdminOptions adminOptions) {
    // Only the entry is written: the shards the full add-node would move are not checked, so that
    // the entry can be written (or found written) while those shards still migrate to the node.
    AddNodePlacement withMoves = addNodePlacement(state, node);
    Map<String, PlanSummary.NodeLoad> before = withMoves.plan().summary().loadsBefore();
    Map<String, PlanSummary.NodeLoad> after = new TreeMap<>(before);
    after.putIfAbsent(node.id(), PlanSummary.NodeLoad.NONE);
    Plan plan =
        new Plan(
            "addNodeEntry " + node.id(),
            List.of(),
            new PlanSummary(0, 0, 0, before, after),
            List.of());
    return changePlan(keys, state, plan, withMoves.nodeChanges(), adminOptions);
  }

  static TopologyAdminPlan removeNodePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      String nodeId,
      TopologyAdminOptions adminOptions) {
    Objects.requireNonNull(nodeId, "nodeId");
    for (ShardAssignment assignment : state.assignments().values()) {
      if (assignment.migration() != null && assignment.migration().to().equals(nodeId)) {
        throw migrating(assignment);
      }
    }
    String key = keys.node(nodeId);
    boolean keyExists = state.modRevision(key) > 0;
    boolean inMap =
        state.assignments().values().stream().anyMatch(assignment -> assignment.involves(nodeId));
    Plan plan;
    if (!inMap && keyExists && !state.nodes().containsKey(nodeId)) {
      // An entry that does not decode and that no shard names: only the key goes.
      plan =
          new Plan(
              "removeNode " + nodeId,
              List.of(),
              new PlanSummary(0, 0, 0, Map.of(), Map.of()),
              List.of());
    } else {
      plan = PlacementPlanner.removeNode(state.assignments(), state.nodes(), nodeId);
    }
    List<NodeChange> nodeChanges =
        keyExists ? List.of(new NodeChange(nodeId, null)) : List.<NodeChange>of();
    return changePlan(keys, state, plan, nodeChanges, adminOptions);
  }

  static TopologyAdminPlan moveShardPlan(
      TopologyKeys keys,
      TopologyAdminState state,
      int shard,
      String toNodeId,
      TopologyAdminOptions adminOptions) {
    requireShardInRange(state, shard);
    requireNotMigrating(state, shard);
    Plan plan = PlacementPlanner.moveLeader(state.assignments(), state.nodes(), shard, toNodeId);
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  static TopologyAdminPlan failoverShardPlan(
      TopologyKeys keys,
      TopologyAdminState state,
      int shard,
      String toNodeIdOrNull,
      TopologyAdminOptions adminOptions) {
    requireShardInRange(state, shard);
    requireNotMigrating(state, shard);
    Plan plan =
        PlacementPlanner.failoverShard(state.assignments(), state.nodes(), shard, toNodeIdOrNull);
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  static TopologyAdminPlan failoverNodePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      String nodeId,
      String toNodeIdOrNull,
      TopologyAdminOptions adminOptions) {
    Plan plan =
        toNodeIdOrNull == null
            ? PlacementPlanner.failoverNode(state.assignments(), state.nodes(), nodeId)
            : failoverNodeTo(state.assignments(), state.nodes(), nodeId, toNodeIdOrNull);
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  static TopologyAdminPlan rebalancePlan(
      TopologyKeys keys, TopologyAdminState state, TopologyAdminOptions adminOptions) {
    Plan plan = PlacementPlanner.rebalance(state.assignments(), state.nodes());
    return changePlan(keys, state, plan, List.of(), adminOptions);
  }

  /**
   * {@link PlacementPlanner#failoverNode} with one chosen node: every shard {@code nodeId} leads
   * fails over to {@code toNodeId}, which must be a replica of each, with the planner's rules for
   * the freed replica slot.
   */
  static Plan failoverNodeTo(
      Map<Integer, ShardAssignment> current,
      Map<String, Node> nodes,
      String nodeId,
      String toNodeId) {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(toNodeId, "toNodeId");
    if (nodeId.equals(toNodeId)) {
      throw new IllegalArgumentException("cannot fail node '" + nodeId + "' over to itself");
    }
    if (!nodes.containsKey(toNodeId)) {
      throw new PlacementException(
          "node '" + toNodeId + "' is not in the node table", -1, toNodeId);
    }
    PlacementWorkspace workspace = new PlacementWorkspace(nodes, current, Set.of(nodeId));
    if (!workspace.isKnown(nodeId)) {
      throw new PlacementException(
          "node '" + nodeId + "' is neither in the node table nor in the shard map", -1, nodeId);
    }
    List<Integer> led = workspace.shardsLedBy(nodeId);
    List<Integer> notReplica = new ArrayList<>();
    for (int shard : led) {
      if (!workspace.replicasOf(shard).contains(toNodeId)) {
        notReplica.add(shard);
      }
    }
    if (!notReplica.isEmpty()) {
      throw new PlacementException(
          "node '"
              + toNodeId
              + "' is not a replica of "
              + notReplica.size()
              + " of the "
              + led.size()
              + " shard(s) that '"
              + nodeId
              + "' leads, first shard "
              + notReplica.get(0)
              + "; fail over without a target to let the planner pick a replica per shard",
          notReplica.get(0),
          toNodeId);
    }
    for (int shard : led) {
      NodeRemoval.failover(workspace, shard, toNodeId);
    }
    return PlanAssembler.assemble(workspace, "failover of node " + nodeId + " to " + toNodeId);
  }

  private static TopologyAdminPlan changePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      Plan plan,
      List<NodeChange> nodeChanges,
      TopologyAdminOptions adminOptions) {
    for (PlanStep step : plan.steps()) {
      requireNotMigrating(state, step.shard());
    }
    Plan withWarnings = withInvalidEntryWarning(plan, state.invalidEntries());
    List<KeyWrite> writes = TopologyAdminWrites.planWrites(keys, state, plan, nodeChanges);
    List<KeyCheck> checks = TopologyAdminWrites.planChecks(keys, state, writes);
    int transactions =
        TopologyAdminWrites.batches(
                keys,
                writes,
                checks,
                adminOptions.maxOperationsPerTransaction(),
                adminOptions.maxBytesPerTransaction())
            .size();
    return new TopologyAdminPlan(
        keys.cluster(),
        state.revision(),
        state.mapRevision(),
        withWarnings,
        null,
        nodeChanges,
        writes,
        checks,
        transactions);
  }

  private static Plan withInvalidEntryWarning(Plan plan, List<InvalidEntry> invalid) {
    if (invalid.isEmpty()) {
      return plan;
    }
    List<String> warnings = new ArrayList<>(plan.warnings());
    InvalidEntry first = invalid.get(0);
    warnings.add(
        invalid.size()
            + " invalid entr"
            + (invalid.size() == 1 ? "y" : "ies")
            + " in the map, left as they are unless the plan rewrites them; first "
            + first.key()
            + ": "
            + first.reason());
    return new Plan(plan.operation(), plan.steps(), plan.summary(), warnings);
  }

  /**
   * A migrating or frozen shard is the mover's: the admin's verbs refuse to change it.
   *
   * @throws PlacementException naming the shard, its state, the migration and its target
   */
  private static void requireNotMigrating(TopologyAdminState state, int shard) {
    ShardAssignment assignment = state.assignments().get(shard);
    if (assignment != null && assignment.migration() != null) {
      throw migrating(assignment);
    }
  }

  private static PlacementException migrating(ShardAssignment assignment) {
    return new PlacementException(
        "shard "
            + assignment.shard()
            + " is "
            + assignment.state().wireName()
            + " (migration '"
            + assignment.migration().id()
            + "' to node '"
            + assignment.migration().to()
            + "'): it cannot be changed until that migration is finished or aborted",
        assignment.shard(),
        assignment.migration().to());
  }

  private static void requireShardInRange(TopologyAdminState state, int shard) {
    int shards = state.metadata().shards();
    if (shard < 0 || shard >= shards) {
      throw new IllegalArgumentException(
          "shard "
              + shard
              + " is out of range: cluster '"
              + state.cluster()
              + "' has shards 0 to "
              + (shards - 1));
    }
  }
}
