package io.jumpgate.topology;

import io.etcd.jetcd.Client;
import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyConflictException;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.TopologyAdminException.Reason;
import java.util.Map;
import java.util.Objects;

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
 * <h2>Where the code is</h2>
 *
 * <p>This class is the public face; each job lives in a package-private class of its own: reading
 * the map ({@code AdminMapReader}), planning ({@code AdminPlanner}, pure), writing batches with
 * compare-and-set ({@code AdminBatchWriter}), the init lock ({@code InitLockProtocol}) and the
 * classification of etcd failures into the exceptions above ({@code AdminTransactions}).
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

  private final TopologyAdminOptions adminOptions;
  private final TopologyKeys keys;
  private final Client client;
  private final boolean ownsClient;
  private final AdminTransactions transactions;
  private final AdminMapReader reader;
  private final AdminBatchWriter writer;
  private final InitLockProtocol initProtocol;

  private TopologyAdmin(
      EtcdTopologyOptions options,
      TopologyAdminOptions adminOptions,
      Client client,
      boolean ownsClient) {
    Objects.requireNonNull(options, "options");
    this.adminOptions = Objects.requireNonNull(adminOptions, "adminOptions");
    this.keys = TopologyKeys.forCluster(options.cluster());
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.transactions = new AdminTransactions(keys, adminOptions, options);
    this.reader = new AdminMapReader(keys, client.getKVClient(), transactions);
    this.writer =
        new AdminBatchWriter(keys, adminOptions, client.getKVClient(), transactions, reader);
    this.initProtocol = new InitLockProtocol(keys, adminOptions, client, transactions);
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
    return reader.map();
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
    AdminMapReader.InitCheck check = reader.initCheck();
    if (check.metaCreateRevision() != 0) {
      throw transactions.alreadyInitialised(check.metaCreateRevision());
    }
    return AdminPlanner.initPlan(keys, check.revision(), nodes, shards, plan, adminOptions);
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
    return AdminPlanner.addNodePlan(keys, read(), node, adminOptions);
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
    return AdminPlanner.addNodeEntryPlan(keys, read(), node, adminOptions);
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
    return AdminPlanner.removeNodePlan(keys, read(), nodeId, adminOptions);
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
    return AdminPlanner.moveShardPlan(keys, read(), shard, toNodeId, adminOptions);
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
    return AdminPlanner.failoverShardPlan(keys, read(), shard, toNodeIdOrNull, adminOptions);
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
    return AdminPlanner.failoverNodePlan(keys, read(), nodeId, toNodeIdOrNull, adminOptions);
  }

  /**
   * Evens out leaderships to at most one apart with the fewest moves, then replica slots ({@link
   * PlacementPlanner#rebalance}).
   */
  public TopologyAdminPlan planRebalance() {
    return AdminPlanner.rebalancePlan(keys, read(), adminOptions);
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
    AdminBatchWriter.requireOwnCluster(keys, plan);
    if (plan.initialises()) {
      return initProtocol.run(plan, progress);
    }
    return writer.apply(plan, progress);
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

  // ---- pure planning, testable without etcd (AdminPlanner) -----------------------------------

  static TopologyAdminPlan initPlan(
      TopologyKeys keys,
      long readRevision,
      Map<String, Node> nodes,
      int shards,
      Plan plan,
      TopologyAdminOptions adminOptions) {
    return AdminPlanner.initPlan(keys, readRevision, nodes, shards, plan, adminOptions);
  }

  static TopologyAdminPlan addNodePlan(
      TopologyKeys keys, TopologyAdminState state, Node node, TopologyAdminOptions adminOptions) {
    return AdminPlanner.addNodePlan(keys, state, node, adminOptions);
  }

  static TopologyAdminPlan addNodeEntryPlan(
      TopologyKeys keys, TopologyAdminState state, Node node, TopologyAdminOptions adminOptions) {
    return AdminPlanner.addNodeEntryPlan(keys, state, node, adminOptions);
  }

  static TopologyAdminPlan removeNodePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      String nodeId,
      TopologyAdminOptions adminOptions) {
    return AdminPlanner.removeNodePlan(keys, state, nodeId, adminOptions);
  }

  static TopologyAdminPlan moveShardPlan(
      TopologyKeys keys,
      TopologyAdminState state,
      int shard,
      String toNodeId,
      TopologyAdminOptions adminOptions) {
    return AdminPlanner.moveShardPlan(keys, state, shard, toNodeId, adminOptions);
  }

  static TopologyAdminPlan failoverShardPlan(
      TopologyKeys keys,
      TopologyAdminState state,
      int shard,
      String toNodeIdOrNull,
      TopologyAdminOptions adminOptions) {
    return AdminPlanner.failoverShardPlan(keys, state, shard, toNodeIdOrNull, adminOptions);
  }

  static TopologyAdminPlan failoverNodePlan(
      TopologyKeys keys,
      TopologyAdminState state,
      String nodeId,
      String toNodeIdOrNull,
      TopologyAdminOptions adminOptions) {
    return AdminPlanner.failoverNodePlan(keys, state, nodeId, toNodeIdOrNull, adminOptions);
  }

  static TopologyAdminPlan rebalancePlan(
      TopologyKeys keys, TopologyAdminState state, TopologyAdminOptions adminOptions) {
    return AdminPlanner.rebalancePlan(keys, state, adminOptions);
  }

  static Plan failoverNodeTo(
      Map<Integer, ShardAssignment> current,
      Map<String, Node> nodes,
      String nodeId,
      String toNodeId) {
    return AdminPlanner.failoverNodeTo(current, nodes, nodeId, toNodeId);
  }
}
