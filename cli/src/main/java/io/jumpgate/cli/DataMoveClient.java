package io.jumpgate.cli;

import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveEstimate;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyAdminState;
import java.time.Duration;
import java.util.Objects;

/**
 * What the admin verbs whose data moves ask of a {@link MapChangeMover}: carry a change out, and
 * the mover's progress and cancel from other threads. An interface so that tests can run the verbs
 * against a fake; {@link #connect} gives the real one, {@link #estimate} the real estimate.
 *
 * <p>{@link #apply} blocks the verb's thread; {@link #progress()} and {@link #cancel()} may be
 * called from any thread.
 */
interface DataMoveClient extends AutoCloseable {

  /** How long the estimate samples the sources at most, all together. */
  Duration ESTIMATE_TIMEOUT = Duration.ofSeconds(10);

  /** Opens a client for the cluster the options name. */
  @FunctionalInterface
  interface Connector {
    /**
     * A client whose mover runs with these options and tells {@code listener}; closed by the
     * caller.
     */
    DataMoveClient connect(EtcdTopologyOptions etcd, MoverOptions options, MoveListener listener);
  }

  /** Estimates what a plan's leader moves copy. */
  @FunctionalInterface
  interface Estimator {
    /**
     * The estimate of {@code moves}; may throw if the map cannot be read (the verb then prints the
     * estimate as unknown).
     */
    MoveEstimate estimate(AdminPlanClient admin, MovePlan moves, MoverOptions options);
  }

  /** See {@link MapChangeMover#apply}. */
  MapChangeMover.Result apply(MapChange change);

  /** See {@link io.jumpgate.migration.Mover#progress()}. */
  MoveProgress progress();

  /** See {@link io.jumpgate.migration.Mover#cancel()}. */
  void cancel();

  /** Closes the mover's etcd clients. */
  @Override
  void close();

  /** A {@link MapChangeMover} with its own etcd clients. */
  static DataMoveClient connect(
      EtcdTopologyOptions etcd, MoverOptions options, MoveListener listener) {
    MapChangeMover changes = MapChangeMover.create(etcd, options, listener);
    return new DataMoveClient() {
      @Override
      public MapChangeMover.Result apply(MapChange change) {
        return changes.apply(change);
      }

      @Override
      public MoveProgress progress() {
        return changes.mover().progress();
      }

      @Override
      public void cancel() {
        changes.mover().cancel();
      }

      @Override
      public void close() {
        changes.close();
      }
    };
  }

  /**
   * {@link MoveEstimate#estimate} on the map as {@code admin} reads it, with the servers reached as
   * {@code options} say, within {@link #ESTIMATE_TIMEOUT}; its copy time at the copy-rate bound of
   * {@code options} when there is one and it is slower than the rate assumed.
   */
  static MoveEstimate estimate(AdminPlanClient admin, MovePlan moves, MoverOptions options) {
    Objects.requireNonNull(admin, "admin");
    TopologyAdminState map = admin.read();
    return MoveEstimate.estimate(
            moves,
            map.nodes(),
            options.serverAddresses(),
            map.metadata().shards(),
            ESTIMATE_TIMEOUT)
        .boundedTo(options.copier().copyKeysPerSecond());
  }
}
