package io.jumpgate.cli;

import io.jumpgate.migration.CopyMethod;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveEstimate;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.MoverOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link DataMoveClient} and estimator for the verbs' tests: records what it is asked, and by
 * default moves every shard of the last plan estimated in one group frozen for 12 ms. No etcd, no
 * Redis.
 */
final class FakeDataMover {

  final List<String> calls = new ArrayList<>();

  /** Thrown by apply, when set. */
  RuntimeException failure;

  /** The phase progress() gives after a failure. */
  MovePhase phaseAfterFailure = MovePhase.FAILED;

  /** Shards reported not moved, with why. */
  final Map<Integer, String> notMoved = new TreeMap<>();

  /** Thrown by the estimator, when set. */
  RuntimeException estimateFailure;

  private MovePlan lastPlan;
  private MoveProgress progress =
      new MoveProgress("", MovePhase.NOT_STARTED, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** The options of the last connect, for what {@link #calls} does not show (credentials). */
  MoverOptions lastOptions;

  DataMoveClient.Connector connector() {
    return (etcd, options, listener) -> {
      lastOptions = options;
      calls.add(
          "connect groupSize="
              + options.groupSize()
              + " acknowledgementTimeout="
              + options.acknowledgementTimeout()
              + " cleanupGrace="
              + options.cleanupGrace()
              + " copyKeysPerSecond="
              + options.copier().copyKeysPerSecond()
              + (options.copier().copyMethod() == CopyMethod.MIGRATE
                  ? ""
                  : " copyMethod=" + options.copier().copyMethod())
              + (options.offline() ? " offline" : ""));
      return client(listener);
    };
  }

  MoveEstimate estimate(AdminPlanClient admin, MovePlan moves, MoverOptions options) {
    calls.add("estimate " + moves.migrationId() + " " + moves.moves().keySet());
    lastPlan = moves;
    if (estimateFailure != null) {
      throw estimateFailure;
    }
    return new MoveEstimate(
        List.of(
            new MoveEstimate.SourceEstimate(
                "n0",
                "127.0.0.1:7000",
                moves.moves().size(),
                4_000,
                1_000,
                250,
                1_000,
                81_920,
                null)),
        MoveEstimate.ASSUMED_KEYS_PER_SECOND);
  }

  private DataMoveClient client(MoveListener listener) {
    return new DataMoveClient() {
      @Override
      public MapChangeMover.Result apply(MapChange change) {
        calls.add("apply " + change.verb());
        if (failure != null) {
          progress =
              new MoveProgress(
                  change.migrationId(), phaseAfterFailure, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
          throw failure;
        }
        // a resume of a recorded migration comes without an estimate: its shards were cut over
        TreeSet<Integer> shards =
            new TreeSet<>(lastPlan == null ? List.of(5) : lastPlan.moves().keySet());
        TreeSet<Integer> moved = new TreeSet<>(shards);
        moved.removeAll(notMoved.keySet());
        GroupOutcome group =
            new GroupOutcome(
                moved,
                "n0",
                "n3",
                1,
                true,
                77,
                Duration.ofMillis(8),
                Duration.ofMillis(12),
                List.of(),
                List.of());
        listener.groupFinished(group);
        progress =
            new MoveProgress(
                change.migrationId(),
                MovePhase.DONE,
                shards.size(),
                moved.size(),
                notMoved.size(),
                1,
                0,
                1_000,
                0,
                81_920,
                0,
                1_000,
                0);
        MoveResult result =
            new MoveResult(
                change.migrationId(),
                moved,
                new TreeMap<>(notMoved),
                List.of(group),
                progress,
                new TreeMap<>(),
                Duration.ofMillis(1_500));
        return new MapChangeMover.Result(List.of(result), null, result.complete());
      }

      @Override
      public MoveProgress progress() {
        return progress;
      }

      @Override
      public void cancel() {
        calls.add("cancel");
      }

      @Override
      public void close() {
        calls.add("close");
      }
    };
  }
}
