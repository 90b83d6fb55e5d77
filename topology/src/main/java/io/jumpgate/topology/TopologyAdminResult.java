package io.jumpgate.topology;

import java.util.List;
import java.util.Objects;

/**
 * What {@link TopologyAdmin#apply} or {@link TopologyAdmin#init} wrote.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cluster the cluster name
 * @param operation what was applied, as the plan says it (e.g. {@code addNode node-d})
 * @param readRevision the map's revision the plan was computed from ({@link
 *     TopologyAdminPlan#mapRevision()}; 0 for {@code init})
 * @param revision the revision at which the change is complete, the map's revision after it (for
 *     {@code init}, the revision of the meta, where the cluster appears); the read map revision
 *     when nothing was written
 * @param transactionRevisions the revision of each etcd transaction, in order (for {@code init} the
 *     lock, the batches, and the last one that writes meta)
 * @param keysWritten keys put or deleted by the plan (for {@code init}: nodes, shards and meta)
 * @param leftoverKeysDeleted keys of an earlier, interrupted {@code init} that {@code init} deleted
 *     first; 0 for every other change
 */
public record TopologyAdminResult(
    String cluster,
    String operation,
    long readRevision,
    long revision,
    List<Long> transactionRevisions,
    int keysWritten,
    long leftoverKeysDeleted) {

  public TopologyAdminResult {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(operation, "operation");
    transactionRevisions = List.copyOf(transactionRevisions);
  }

  /** How many etcd transactions were committed. */
  public int transactions() {
    return transactionRevisions.size();
  }
}
