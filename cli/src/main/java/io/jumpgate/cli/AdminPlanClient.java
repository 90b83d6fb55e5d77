package io.jumpgate.cli;

import io.jumpgate.spi.Node;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminPlan;
import io.jumpgate.topology.TopologyAdminResult;
import io.jumpgate.topology.TopologyAdminState;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What the admin verbs ask of a {@link TopologyAdmin}: plan a change, apply it. An interface so
 * that tests can run the verbs against a fake; {@link #connect} gives the real one.
 *
 * <p>Each method is the {@link TopologyAdmin} method of the same name, with its exceptions.
 * Implementations are used from the thread that runs the verb.
 */
interface AdminPlanClient extends AutoCloseable {

  /** Opens a client for the cluster the options name. */
  @FunctionalInterface
  interface Connector {
    /** A client for these options; the caller closes it. */
    AdminPlanClient connect(EtcdTopologyOptions options);
  }

  /** See {@link TopologyAdmin#planInit}. */
  TopologyAdminPlan planInit(Map<String, Node> nodes, int shards, int replicas);

  /** See {@link TopologyAdmin#planAddNode}. */
  TopologyAdminPlan planAddNode(Node node);

  /** See {@link TopologyAdmin#planRemoveNode}. */
  TopologyAdminPlan planRemoveNode(String nodeId);

  /** See {@link TopologyAdmin#planMoveShard}. */
  TopologyAdminPlan planMoveShard(int shard, String toNodeId);

  /** See {@link TopologyAdmin#planFailoverShard}. */
  TopologyAdminPlan planFailoverShard(int shard, String toNodeIdOrNull);

  /** See {@link TopologyAdmin#planFailoverNode}. */
  TopologyAdminPlan planFailoverNode(String nodeId, String toNodeIdOrNull);

  /** See {@link TopologyAdmin#planRebalance}. */
  TopologyAdminPlan planRebalance();

  /** See {@link TopologyAdmin#apply(TopologyAdminPlan, TopologyAdmin.Progress)}. */
  TopologyAdminResult apply(TopologyAdminPlan plan, TopologyAdmin.Progress progress);

  /**
   * See {@link TopologyAdmin#read()}: the map as it is, for the estimate of the data that moves.
   * The default refuses (a client that only plans).
   */
  default TopologyAdminState read() {
    throw new UnsupportedOperationException("this client does not read the map");
  }

  /**
   * Whether etcd holds the record of {@code migrationId}: a migration whose mover stopped before it
   * finished (see {@link MigrationStore#readRecord}). The default answers false (a client that only
   * plans).
   */
  default boolean hasMigrationRecord(String migrationId) {
    return false;
  }

  /** Closes the etcd client. */
  @Override
  void close();

  /** A {@link TopologyAdmin} with its own jetcd client for these options. */
  static AdminPlanClient connect(EtcdTopologyOptions options) {
    return of(
        TopologyAdmin.create(options),
        migrationId -> {
          try (MigrationStore store = MigrationStore.create(options)) {
            return store.readRecord(migrationId).isPresent();
          }
        });
  }

  /** A client that calls {@code admin} and closes it with itself; it sees no migration record. */
  static AdminPlanClient of(TopologyAdmin admin) {
    return of(admin, migrationId -> false);
  }

  /**
   * A client that calls {@code admin} and closes it with itself, and asks {@code records} whether a
   * migration record exists.
   */
  static AdminPlanClient of(TopologyAdmin admin, Predicate<String> records) {
    Objects.requireNonNull(admin, "admin");
    Objects.requireNonNull(records, "records");
    return new AdminPlanClient() {
      @Override
      public TopologyAdminPlan planInit(Map<String, Node> nodes, int shards, int replicas) {
        return admin.planInit(nodes, shards, replicas);
      }

      @Override
      public TopologyAdminPlan planAddNode(Node node) {
        return admin.planAddNode(node);
      }

      @Override
      public TopologyAdminPlan planRemoveNode(String nodeId) {
        return admin.planRemoveNode(nodeId);
      }

      @Override
      public TopologyAdminPlan planMoveShard(int shard, String toNodeId) {
        return admin.planMoveShard(shard, toNodeId);
      }

      @Override
      public TopologyAdminPlan planFailoverShard(int shard, String toNodeIdOrNull) {
        return admin.planFailoverShard(shard, toNodeIdOrNull);
      }

      @Override
      public TopologyAdminPlan planFailoverNode(String nodeId, String toNodeIdOrNull) {
        return admin.planFailoverNode(nodeId, toNodeIdOrNull);
      }

      @Override
      public TopologyAdminPlan planRebalance() {
        return admin.planRebalance();
      }

      @Override
      public TopologyAdminResult apply(TopologyAdminPlan plan, TopologyAdmin.Progress progress) {
        return admin.apply(plan, progress);
      }

      @Override
      public TopologyAdminState read() {
        return admin.read();
      }

      @Override
      public boolean hasMigrationRecord(String migrationId) {
        return records.test(migrationId);
      }

      @Override
      public void close() {
        admin.close();
      }
    };
  }
}
