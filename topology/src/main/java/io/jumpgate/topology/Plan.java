package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A computed change of the shard map: an ordered list of per-shard steps, a summary, and warnings.
 * Plans are data: the {@link PlacementPlanner} computes them without side effects, a person or a
 * program reads them, and an admin applies them on request (one etcd Txn that compares each key's
 * revision, see the topology contract).
 *
 * <p>Immutable and thread-safe. Every component is a plain value with accessors, so a plan can be
 * printed as JSON by a generic mapper.
 *
 * @param operation what the plan does, for people, e.g. {@code addNode node-d}
 * @param steps one step per changed shard, in ascending shard order, at most one per shard
 * @param summary counts of what moves, and the loads of every node before and after
 * @param warnings what the plan could not do as well as it should (a shard left with fewer
 *     replicas, a shard whose nodes share a zone although enough zones exist); empty when none
 */
public record Plan(
    String operation, List<PlanStep> steps, PlanSummary summary, List<String> warnings) {

  /**
   * @throws IllegalArgumentException if the steps are not in strictly ascending shard order
   */
  public Plan {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(summary, "summary");
    steps = List.copyOf(steps);
    warnings = List.copyOf(warnings);
    for (int index = 1; index < steps.size(); index++) {
      if (steps.get(index - 1).shard() >= steps.get(index).shard()) {
        throw new IllegalArgumentException(
            "steps must be in strictly ascending shard order, shard "
                + steps.get(index).shard()
                + " follows shard "
                + steps.get(index - 1).shard());
      }
    }
  }

  /** Whether the plan changes nothing. */
  public boolean changesNothing() {
    return steps.isEmpty();
  }

  /**
   * The shard map after the plan: {@code current} with every step's {@code after}, as a new
   * unmodifiable map sorted by shard id. {@code current} is not modified.
   *
   * @throws PlacementException naming the shard, if the map no longer holds a step's {@code before}
   *     (the map changed since the plan was computed: plan again)
   */
  public Map<Integer, ShardAssignment> applyTo(Map<Integer, ShardAssignment> current) {
    SortedMap<Integer, ShardAssignment> result = new TreeMap<>(current);
    for (PlanStep step : steps) {
      ShardAssignment found = result.get(step.shard());
      if (!Objects.equals(found, step.before())) {
        throw new PlacementException(
            "shard "
                + step.shard()
                + " changed since the plan was computed; compute the plan again",
            step.shard(),
            null);
      }
      result.put(step.shard(), step.after());
    }
    return Collections.unmodifiableSortedMap(result);
  }

  /**
   * The plan for people, one line each: a headline with the counts (shards changed, leaderships
   * moved, replica memberships added; whether and how data is copied is not the placement's to say:
   * the verb that applies the plan says it), one line per step (see {@link PlanStep#describe()}),
   * one per warning ({@code warning: ...}), and one per node whose load changes ({@code node
   * node-a: leaders 342 -> 256, replicas 342 -> 342}). The wording may change; programs read the
   * components instead.
   */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add(
        operation
            + ": "
            + steps.size()
            + " shard(s) change, "
            + summary.leadershipsMoved()
            + " leadership(s) move, "
            + summary.replicasMoved()
            + " replica(s) move");
    for (PlanStep step : steps) {
      lines.add(step.describe());
    }
    for (String warning : warnings) {
      lines.add("warning: " + warning);
    }
    summary
        .loadsAfter()
        .forEach(
            (nodeId, after) -> {
              PlanSummary.NodeLoad before =
                  summary.loadsBefore().getOrDefault(nodeId, PlanSummary.NodeLoad.NONE);
              if (!before.equals(after)) {
                lines.add(
                    "node "
                        + nodeId
                        + ": leaders "
                        + before.leaders()
                        + " -> "
                        + after.leaders()
                        + ", replicas "
                        + before.replicas()
                        + " -> "
                        + after.replicas());
              }
            });
    return List.copyOf(lines);
  }
}
