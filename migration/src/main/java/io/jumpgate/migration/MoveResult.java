package io.jumpgate.migration;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The summary of a finished migration ({@link Mover#move} or {@link Mover#resume}): what moved,
 * what did not and why, every cutover attempt with its timings (the caller computes percentiles),
 * and the writes that reached a source after their shard's cutover.
 *
 * <p>Immutable.
 *
 * @param migrationId the migration's id
 * @param shardsCutOver shards now led by their target
 * @param shardsNotMoved shards left on their source, with the reason
 * @param groups every cutover attempt, in order
 * @param progress the counters at the end
 * @param writesAfterCutover per shard, writes seen on its old leader after its cutover: each is a
 *     write lost, so anything here is a bug (or a client that does not take part); empty normally
 * @param elapsed from the start of the run to its end
 */
public record MoveResult(
    String migrationId,
    SortedSet<Integer> shardsCutOver,
    SortedMap<Integer, String> shardsNotMoved,
    List<GroupOutcome> groups,
    MoveProgress progress,
    SortedMap<Integer, Long> writesAfterCutover,
    Duration elapsed) {

  public MoveResult {
    shardsCutOver = Collections.unmodifiableSortedSet(new TreeSet<>(shardsCutOver));
    shardsNotMoved = Collections.unmodifiableSortedMap(new TreeMap<>(shardsNotMoved));
    groups = List.copyOf(groups);
    writesAfterCutover = Collections.unmodifiableSortedMap(new TreeMap<>(writesAfterCutover));
  }

  /** Whether every shard of the plan moved and no write reached a source after its cutover. */
  public boolean complete() {
    return shardsNotMoved.isEmpty() && writesAfterCutover.isEmpty();
  }

  /** The attempts that cut their group over. */
  public List<GroupOutcome> cutOverGroups() {
    return groups.stream().filter(GroupOutcome::cutOver).toList();
  }

  /** Total writes after cutover over every shard. */
  public long writesAfterCutoverTotal() {
    long total = 0;
    for (Map.Entry<Integer, Long> entry : writesAfterCutover.entrySet()) {
      total += entry.getValue();
    }
    return total;
  }
}
