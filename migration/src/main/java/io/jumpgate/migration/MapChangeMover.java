package io.jumpgate.migration;

import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.PlanStep;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminPlan;
import io.jumpgate.topology.TopologyAdminResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Carries out a {@link MapChange} so that the data follows the map:
 *
 * <ol>
 *   <li>{@code add-node} writes the new node's entry alone (it leads nothing yet);
 *   <li>the change is planned from the map, and every shard whose leader it changes is moved live
 *       by a {@link Mover} under the change's {@link MapChange#migrationId()} (a record of that id
 *       left by a mover that died is resumed first, then the change is planned again);
 *   <li>the change is planned again and what is left, which changes no leader (replica slots, a
 *       removed node's entry), is written to the map alone. A plan that still changes a leader then
 *       means the map changed meanwhile: {@link MigrationException}, run the verb again.
 * </ol>
 *
 * <p>Shards that could not be cut over stay on their source and stop the change before step 3:
 * {@link Result#complete()} is false and the map keeps every other leader as it was.
 *
 * <p>Threads: {@link #apply} blocks the calling thread (never a Netty or jetcd thread); {@link
 * #mover()} gives the {@link Mover} for {@link Mover#progress()} and {@link Mover#cancel()} from
 * any thread. One change at a time per instance. Defaults are those of the {@link MoverOptions}
 * given.
 */
public final class MapChangeMover implements AutoCloseable {

  /** Moves of a resumed record, then of the plan made after it: at most this many runs. */
  private static final int MAX_RUNS = 3;

  /**
   * What a change will do, planned from the map as it is.
   *
   * @param adminPlan the verb's plan (what the map-only verb writes)
   * @param leaderMoves the shards whose data moves; empty when no leader changes
   * @param warnings the plan's own warnings and those of {@link MapChange#replicaWarnings}
   */
  public record Planned(
      TopologyAdminPlan adminPlan, Optional<MovePlan> leaderMoves, List<String> warnings) {
    public Planned {
      Objects.requireNonNull(adminPlan, "adminPlan");
      Objects.requireNonNull(leaderMoves, "leaderMoves");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * What a change did.
   *
   * @param moves the mover's result of each run, in order (none when no leader changed)
   * @param mapOnly what was written to the map alone after the moves; null when nothing was
   * @param complete whether every shard moved and no write reached a source after its cutover
   */
  public record Result(List<MoveResult> moves, TopologyAdminResult mapOnly, boolean complete) {
    public Result {
      moves = List.copyOf(moves);
    }
  }

  private final TopologyAdmin admin;
  private final Mover mover;

  private MapChangeMover(TopologyAdmin admin, Mover mover) {
    this.admin = admin;
    this.mover = mover;
  }

  /** A change mover with its own etcd clients for the cluster {@code etcd} names. */
  public static MapChangeMover create(
      EtcdTopologyOptions etcd, MoverOptions options, MoveListener listener) {
    TopologyAdmin admin = TopologyAdmin.create(Objects.requireNonNull(etcd, "etcd"));
    try {
      return new MapChangeMover(admin, Mover.create(etcd, options, listener));
    } catch (RuntimeException e) {
      admin.close();
      throw e;
    }
  }

  /** The mover that moves the data, for its progress and to cancel it. */
  public Mover mover() {
    return mover;
  }

  /** The admin this change mover plans with. */
  public TopologyAdmin admin() {
    return admin;
  }

  /** Plans {@code change} from the map as it is now; writes nothing. */
  public Planned plan(MapChange change) {
    TopologyAdminPlan adminPlan = change.plan(admin);
    List<String> warnings = new ArrayList<>(adminPlan.plan().warnings());
    warnings.addAll(MapChange.replicaWarnings(adminPlan));
    return new Planned(adminPlan, MapChange.leaderMoves(adminPlan, change.migrationId()), warnings);
  }

  /**
   * Carries the change out (see the class comment).
   *
   * @throws MoveRefusedException if another mover holds the lock, or the plan does not fit the map
   * @throws ChangeCaptureUnavailableException if a source refuses {@code CONFIG SET}
   * @throws MigrationException if a phase failed (the record stays: run the verb again to resume)
   *     or the map changed meanwhile
   */
  public Result apply(MapChange change) {
    Objects.requireNonNull(change, "change");
    if (change.addedNode().isPresent()) {
      TopologyAdminPlan entry = admin.planAddNodeEntry(change.addedNode().get());
      if (!entry.changesNothing()) {
        admin.apply(entry);
      }
    }
    List<MoveResult> moves = new ArrayList<>();
    String id = change.migrationId();
    boolean resumed = false;
    for (int run = 0; run < MAX_RUNS; run++) {
      if (!resumed && mover.hasRecord(id)) {
        resumed = true;
        moves.add(mover.resume(id));
      } else {
        Optional<MovePlan> leaderMoves = MapChange.leaderMoves(change.plan(admin), id);
        if (leaderMoves.isEmpty()) {
          break;
        }
        moves.add(mover.move(leaderMoves.get()));
      }
      MoveResult last = moves.get(moves.size() - 1);
      if (!last.complete()) {
        return new Result(moves, null, false);
      }
      if (change.finishedByLeaderMoves() && !resumed) {
        return new Result(moves, null, true);
      }
    }
    if (change.finishedByLeaderMoves()) {
      return new Result(moves, null, true);
    }
    TopologyAdminPlan rest = change.plan(admin);
    for (PlanStep step : rest.plan().steps()) {
      if (MapChange.movesData(step)) {
        throw new MigrationException(
            change.verb()
                + ": after the data moved, the plan still moves the leader of shard "
                + step.shard()
                + " ("
                + step.before().leader()
                + " -> "
                + step.after().leader()
                + "): the map changed meanwhile; run it again");
      }
    }
    TopologyAdminResult mapOnly = rest.changesNothing() ? null : admin.apply(rest);
    return new Result(moves, mapOnly, true);
  }

  /** Closes the mover's and the admin's etcd clients; after {@link #apply} returned. */
  @Override
  public void close() {
    try {
      mover.close();
    } finally {
      admin.close();
    }
  }
}
