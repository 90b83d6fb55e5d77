package io.jumpgate.cli;

import io.jumpgate.migration.ChangeCaptureUnavailableException;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MigrationException;
import io.jumpgate.migration.MoveCancelledException;
import io.jumpgate.migration.MoveEstimate;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveRefusedException;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.PlanStep;
import io.jumpgate.topology.TopologyAdminPlan;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The data side of an admin verb's plan: which shards' data moves (those whose leader changes), the
 * warnings about their replicas, the estimate of what the copy moves, and carrying the change out
 * through a {@link DataMoveClient} with a progress line.
 *
 * <p>Made and used on the verb's thread; the progress line runs on a thread of its own while {@link
 * #carryOut} blocks.
 */
final class DataMovePlan {

  /** How long a Ctrl-C waits for the mover to stop at its next step before the JVM exits. */
  private static final long CANCEL_WAIT_SECONDS = 30;

  private final MapChange change;
  private final TopologyAdminPlan plan;
  private final Optional<MovePlan> leaderMoves;
  private final List<String> warnings;
  private final MoveEstimate estimate;
  private final String estimateFailure;
  private final int groupSize;
  private final boolean offline;
  private final java.time.Duration cleanupGrace;

  private DataMovePlan(
      MapChange change,
      TopologyAdminPlan plan,
      Optional<MovePlan> leaderMoves,
      List<String> warnings,
      MoveEstimate estimate,
      String estimateFailure,
      MoverOptions options) {
    this.change = change;
    this.plan = plan;
    this.groupSize = options.groupSize();
    this.offline = options.offline();
    this.cleanupGrace = options.cleanupGrace();
    this.leaderMoves = leaderMoves;
    this.warnings = List.copyOf(warnings);
    this.estimate = estimate;
    this.estimateFailure = estimateFailure;
  }

  /**
   * The data side of {@code plan}, with the estimate (never fails for it); {@code plan} is null
   * when the verb finishes its own migration left unfinished, whose shards could not be planned
   * again.
   */
  static DataMovePlan of(DataMovingCommand verb, AdminPlanClient admin, TopologyAdminPlan plan) {
    MapChange change = verb.mapChange();
    Optional<MovePlan> moves =
        plan == null ? Optional.empty() : MapChange.leaderMoves(plan, change.migrationId());
    List<String> warnings = moves.isPresent() ? MapChange.replicaWarnings(plan) : List.of();
    MoveEstimate estimate = null;
    String failure = null;
    if (moves.isPresent()) {
      try {
        estimate = verb.estimator.estimate(admin, moves.get(), verb.moverOptions());
      } catch (RuntimeException e) {
        failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      }
    }
    return new DataMovePlan(change, plan, moves, warnings, estimate, failure, verb.moverOptions());
  }

  /** The freezes a plan takes at least: its shards per (source, target) pair, in groups. */
  static int freezes(MovePlan moves, int groupSize) {
    Map<String, Integer> pairs = new TreeMap<>();
    moves
        .moves()
        .values()
        .forEach(move -> pairs.merge(move.from() + " " + move.to(), 1, Integer::sum));
    int freezes = 0;
    for (int shards : pairs.values()) {
      freezes += (shards + groupSize - 1) / groupSize;
    }
    return freezes;
  }

  /** The lines added to the plan's printout. */
  List<String> describe() {
    List<String> lines = new ArrayList<>();
    if (leaderMoves.isEmpty()) {
      lines.add("data: no leader changes, so no data moves: the map alone changes");
      return lines;
    }
    lines.add(
        "data: "
            + leaderMoves.get().moves().size()
            + " shard(s) move with their data to their new leader, as migration "
            + change.migrationId()
            + " (--map-only changes the map alone)");
    for (String warning : warnings) {
      lines.add("warning: " + warning);
    }
    if (change.verb().startsWith("move-shard ")) {
      for (PlanStep step : plan.plan().steps()) {
        if (step.leaderChanged() && step.after().replicas().contains(step.before().leader())) {
          lines.add(
              "note: with its data moving, "
                  + step.before().leader()
                  + " leaves shard "
                  + step.shard()
                  + " instead of becoming its replica (it does with --map-only)");
        }
      }
    }
    if (estimate != null) {
      lines.addAll(estimate.describe());
    } else {
      lines.add("estimate: unknown (" + estimateFailure + ")");
    }
    if (offline) {
      lines.addAll(describeOffline());
    }
    lines.add(
        "then "
            + freezes(leaderMoves.get(), groupSize)
            + " freeze(s) of at most "
            + groupSize
            + " shard(s) each, and the old copies removed "
            + MoveProgressReporter.seconds(cleanupGrace.toNanos())
            + " after the last cutover");
    return lines;
  }

  /** What offline means for this plan: the shards frozen for the whole copy, how long. */
  private List<String> describeOffline() {
    List<String> lines = new ArrayList<>();
    lines.add(
        "offline (--offline): no change capture and no CONFIG SET; the moved shards are frozen"
            + " for the whole copy of their group: each group of up to "
            + groupSize
            + " shard(s) is frozen, acknowledged by every client, copied (a SCAN of its whole"
            + " source) and then cut over");
    Map<String, java.time.Duration> freezes =
        estimate == null ? Map.of() : estimate.offlineFreezePerGroup(groupSize);
    if (freezes.isEmpty()) {
      lines.add("estimated freeze per group: unknown (no source sampled)");
    }
    freezes.forEach(
        (source, freeze) ->
            lines.add(
                "estimated freeze per group from "
                    + source
                    + ": about "
                    + (freeze.toMillis() < 1000
                        ? freeze.toMillis() + " ms"
                        : MoveEstimate.seconds(freeze))
                    + String.format(
                        java.util.Locale.ROOT,
                        " (its keys scanned at %,d keys/s, the group's keys copied at %,d keys/s)",
                        MoveEstimate.ASSUMED_SCAN_KEYS_PER_SECOND,
                        estimate.assumedKeysPerSecond())));
    lines.add(
        "meanwhile clients hold their requests to the frozen shards; a request held longer than"
            + " the driver's freeze bound (freeze.max-wait, 5s by default) fails with a retryable"
            + " error, never sent; no write is lost");
    return lines;
  }

  /** The {@code dataMove} field of the JSON document. */
  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("migrationId", change.migrationId());
    json.put("shards", leaderMoves.map(moves -> moves.moves().size()).orElse(0));
    json.put("warnings", warnings);
    json.put("offline", offline);
    json.put("groupSize", groupSize);
    if (offline) {
      json.put("frozenForWholeCopy", true);
      Map<String, Long> freezes = new TreeMap<>();
      if (estimate != null) {
        estimate
            .offlineFreezePerGroup(groupSize)
            .forEach((source, freeze) -> freezes.put(source, freeze.toMillis()));
      }
      json.put("estimatedFreezeMillisPerGroup", freezes);
    }
    if (estimate == null) {
      json.put("estimate", null);
      json.put("estimateFailure", estimateFailure);
    } else {
      Map<String, Object> estimated = new LinkedHashMap<>();
      estimated.put("complete", estimate.complete());
      estimated.put("keys", estimate.keysMoving());
      estimated.put("bytes", estimate.bytesMoving());
      estimated.put("assumedKeysPerSecond", estimate.assumedKeysPerSecond());
      estimated.put("copyMillis", estimate.copyTime().toMillis());
      estimated.put("sources", estimate.sources());
      json.put("estimate", estimated);
    }
    return json;
  }

  /**
   * Carries the change out: the mover moves the data of every shard whose leader changes, then
   * writes the rest of the plan to the map. Prints a progress line unless {@code json}. A Ctrl-C
   * cancels the mover at its next step (never while shards are frozen) and waits for it.
   *
   * @throws MoveRefusedException another mover holds the lock, or the map does not match
   * @throws ChangeCaptureUnavailableException a source refuses keyspace notifications
   * @throws MigrationException a phase failed or was cancelled (the message says how to resume)
   */
  Outcome carryOut(
      DataMovingCommand verb, EtcdTopologyOptions etcd, PrintWriter out, boolean json) {
    AtomicReference<DataMoveClient> client = new AtomicReference<>();
    long estimatedKeys = estimate == null ? -1 : estimate.keysMoving();
    MoveProgressReporter reporter =
        json
            ? null
            : new MoveProgressReporter(
                    out,
                    System.console() != null,
                    () -> client.get().progress(),
                    estimatedKeys,
                    System::nanoTime)
                .offline(offline);
    MoveListener listener = reporter != null ? reporter : new MoveListener() {};
    String id = change.migrationId();
    if (!json && leaderMoves.isPresent()) {
      out.println(
          "moving the data as migration "
              + id
              + " (Ctrl-C stops it between two steps; the same command again resumes it)");
      out.flush();
    }
    try (DataMoveClient mover = verb.dataMover.connect(etcd, verb.moverOptions(), listener)) {
      client.set(mover);
      CountDownLatch finished = new CountDownLatch(1);
      Thread cancelOnExit =
          new Thread(
              () -> {
                // Ctrl-C (or SIGTERM): stop at the next step, then let the verb print what stays
                // and how to finish before the JVM halts, within one bound for both.
                mover.cancel();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CANCEL_WAIT_SECONDS);
                try {
                  if (finished.await(CANCEL_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    VerbCompletion.awaitPrinted(
                        TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "jumpgate-move-cancel");
      Runtime.getRuntime().addShutdownHook(cancelOnExit);
      if (reporter != null) {
        reporter.start();
      }
      try {
        return new Outcome(id, mover.apply(change));
      } catch (MoveRefusedException | ChangeCaptureUnavailableException e) {
        throw e;
      } catch (MigrationException e) {
        MovePhase phase = mover.progress().phase();
        if (e instanceof MoveCancelledException
            || phase == MovePhase.FAILED
            || phase == MovePhase.CANCELLED) {
          throw new MigrationException(
              e.getMessage()
                  + "; the record of migration "
                  + id
                  + " stays: run the same command again (or jumpgate migrate resume "
                  + id
                  + ") to finish it, or jumpgate migrate abort "
                  + id
                  + " to undo what is not cut over",
              e);
        }
        throw e;
      } finally {
        if (reporter != null) {
          reporter.tick();
          reporter.close();
        }
        finished.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(cancelOnExit);
        } catch (IllegalStateException e) {
          // The JVM is shutting down: the hook is running.
        }
      }
    }
  }

  /** What carrying the change out did. */
  record Outcome(String migrationId, MapChangeMover.Result result) {

    /** The summary and the map-only write. */
    List<String> describe() {
      List<String> lines = new ArrayList<>(MoveProgressReporter.summary(result));
      if (result.mapOnly() != null) {
        lines.add(
            "then the map alone (no data): applied at revision "
                + result.mapOnly().revision()
                + ": "
                + result.mapOnly().keysWritten()
                + " key(s) in "
                + result.mapOnly().transactions()
                + " transaction(s)");
      }
      if (!result.complete()) {
        lines.add("the change is not complete: the map keeps every other leader as it was");
      }
      return lines;
    }

    /** The {@code move} field of the JSON document. */
    Map<String, Object> toJson() {
      int total = 0;
      long keys = 0;
      long bytes = 0;
      long elapsed = 0;
      long writesAfter = 0;
      List<Integer> moved = new ArrayList<>();
      Map<Integer, String> notMoved = new TreeMap<>();
      List<Long> freezes = new ArrayList<>();
      for (MoveResult move : result.moves()) {
        total += move.progress().shardsTotal();
        moved.addAll(move.shardsCutOver());
        notMoved.putAll(move.shardsNotMoved());
        keys += move.progress().keysCopied() + move.progress().keysRecopied();
        bytes += move.progress().bytesCopied();
        elapsed += move.elapsed().toMillis();
        writesAfter += move.writesAfterCutoverTotal();
        for (GroupOutcome group : move.groups()) {
          if (group.freezeDuration() != null && group.freezeRevision() > 0) {
            freezes.add(group.freezeDuration().toNanos() / 1000);
          }
        }
      }
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("migrationId", migrationId);
      json.put("complete", result.complete());
      json.put("runs", result.moves().size());
      json.put("shards", total);
      json.put("shardsMoved", moved);
      json.put("shardsNotMoved", notMoved);
      json.put("keysCopied", keys);
      json.put("bytesCopied", bytes);
      json.put("elapsedMillis", elapsed);
      json.put("freezes", freezes.size());
      json.put("freezeP50Micros", MoveProgressReporter.percentile(freezes, 0.50));
      json.put("freezeP99Micros", MoveProgressReporter.percentile(freezes, 0.99));
      json.put("freezeMaxMicros", MoveProgressReporter.percentile(freezes, 1.0));
      json.put("writesAfterCutover", writesAfter);
      return json;
    }

    /**
     * @throws MigrationException naming the shards not moved and the writes after cutover, when the
     *     change is not complete
     */
    void throwIfIncomplete() {
      if (result.complete()) {
        return;
      }
      List<String> reasons = new ArrayList<>();
      Map<Integer, String> notMoved = new TreeMap<>();
      long writesAfter = 0;
      for (MoveResult move : result.moves()) {
        notMoved.putAll(move.shardsNotMoved());
        writesAfter += move.writesAfterCutoverTotal();
      }
      if (!notMoved.isEmpty()) {
        Map.Entry<Integer, String> first = notMoved.entrySet().iterator().next();
        reasons.add(
            notMoved.size()
                + " shard(s) not moved (shard "
                + first.getKey()
                + ": "
                + first.getValue()
                + (notMoved.size() > 1 ? "; ..." : "")
                + "): they stay on their leader; run the same command again to move them");
      }
      if (writesAfter > 0) {
        reasons.add(
            writesAfter
                + " write(s) reached an old leader after their shard's cutover and are lost (a"
                + " client that does not take part in migrations?)");
      }
      throw new MigrationException(
          "the data of migration "
              + migrationId
              + " did not all move: "
              + String.join("; ", reasons));
    }
  }
}
