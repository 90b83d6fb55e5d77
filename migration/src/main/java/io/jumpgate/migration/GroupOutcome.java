package io.jumpgate.migration;

import java.time.Duration;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One attempt at cutting a group of shards over: the freeze, the wait for the acknowledgements and
 * the source's connections, the drain, and the cutover (or the give-up).
 *
 * <p>Immutable.
 *
 * @param shards the group's shards
 * @param source node id of their leader before the cutover
 * @param target node id of their leader after it
 * @param attempt 1 for the first try of this group, 2 for the next, ...
 * @param cutOver whether the shards moved; false: the freeze was lifted with nothing moved
 * @param freezeRevision the etcd revision of the freeze transaction (0 if it failed)
 * @param acknowledgementWait from the freeze transaction until every registered client had
 *     acknowledged and no stale connection was left on the source (or until the bound)
 * @param freezeDuration from the freeze transaction until the cutover (or give-up) transaction: how
 *     long the clients held their requests to these shards
 * @param blockers why the cutover did not happen: clients that did not acknowledge, connections of
 *     unknown or stale clients, a failed drain; empty when cut over
 * @param otherConnections names of connections on the source that are not Jumpgate clients
 *     (reported, not waited for)
 */
public record GroupOutcome(
    SortedSet<Integer> shards,
    String source,
    String target,
    int attempt,
    boolean cutOver,
    long freezeRevision,
    Duration acknowledgementWait,
    Duration freezeDuration,
    List<String> blockers,
    List<String> otherConnections) {

  public GroupOutcome {
    shards = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(shards));
    blockers = List.copyOf(blockers);
    otherConnections = List.copyOf(otherConnections);
  }
}
