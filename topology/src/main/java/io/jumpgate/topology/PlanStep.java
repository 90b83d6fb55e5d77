package io.jumpgate.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One shard's change in a {@link Plan}: the assignment the plan was computed from and the one it
 * writes.
 *
 * <p>Immutable and thread-safe. The planner makes {@code after} with {@link
 * ShardAssignment#withNodes}, so its epoch is {@code before.epoch() + 1} exactly when the leader
 * changes and equal to {@code before.epoch()} otherwise, and it keeps {@code before}'s state; a
 * shard that had no assignment starts active at epoch 0.
 *
 * @param shard the shard id
 * @param before the assignment the plan expects to find, or null when the shard is unassigned
 * @param after the assignment the plan writes, never null
 */
public record PlanStep(int shard, ShardAssignment before, ShardAssignment after) {

  /**
   * @throws IllegalArgumentException if {@code before} or {@code after} is about another shard, or
   *     if they are equal (a step always changes something)
   */
  public PlanStep {
    Objects.requireNonNull(after, "after");
    if (after.shard() != shard || (before != null && before.shard() != shard)) {
      throw new IllegalArgumentException(
          "every assignment of the step of shard " + shard + " must be about shard " + shard);
    }
    if (after.equals(before)) {
      throw new IllegalArgumentException("the step of shard " + shard + " changes nothing");
    }
  }

  /** Whether the shard gets a leader it did not have (true for a shard that was unassigned). */
  public boolean leaderChanged() {
    return before == null || !before.leader().equals(after.leader());
  }

  /** Node ids that become replicas of the shard, in the order of {@code after.replicas()}. */
  public List<String> replicasAdded() {
    List<String> added = new ArrayList<>();
    for (String replica : after.replicas()) {
      if (before == null || !before.replicas().contains(replica)) {
        added.add(replica);
      }
    }
    return List.copyOf(added);
  }

  /**
   * Node ids that join the shard (as leader or replica) without having been part of it: each needs
   * a copy of the shard's data. The leader comes first.
   */
  public List<String> nodesJoining() {
    List<String> joining = new ArrayList<>();
    if (before == null || !before.involves(after.leader())) {
      joining.add(after.leader());
    }
    for (String replica : after.replicas()) {
      if (before == null || !before.involves(replica)) {
        joining.add(replica);
      }
    }
    return List.copyOf(joining);
  }

  /**
   * One line for people, e.g. {@code shard 0017: leader node-a -> node-d (epoch 4 -> 5), replicas
   * [node-b] -> [node-b]}. The wording may change; programs read the fields instead.
   */
  public String describe() {
    StringBuilder line = new StringBuilder();
    line.append("shard ").append(String.format("%04d", shard)).append(": leader ");
    if (before == null) {
      line.append("(unassigned) -> ").append(after.leader());
      line.append(" (epoch ").append(after.epoch()).append(')');
    } else if (leaderChanged()) {
      line.append(before.leader()).append(" -> ").append(after.leader());
      line.append(" (epoch ").append(before.epoch()).append(" -> ").append(after.epoch());
      line.append(')');
    } else {
      line.append(after.leader()).append(" (epoch ").append(after.epoch()).append(')');
    }
    line.append(", replicas ");
    line.append(before == null ? "(unassigned)" : bracketed(before.replicas()));
    line.append(" -> ").append(bracketed(after.replicas()));
    return line.toString();
  }

  private static String bracketed(List<String> nodeIds) {
    return "[" + String.join(", ", nodeIds) + "]";
  }
}
