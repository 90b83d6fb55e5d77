package io.jumpgate.topology;

import io.etcd.jetcd.KeyValue;
import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.TopologyState;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Decodes a listing of a cluster's keys (the key values of a ranged GET of {@code
 * /jumpgate/<cluster>/}, at the current or at an older revision) into the snapshot a topology
 * source would build from it: the same decoding and per-key validation as {@link
 * EtcdTopologySource}'s first listing. For tools that read the map at a given revision ({@code
 * jumpgate topology diff A etcd@REV}) and for tests that replay a history.
 *
 * <p>Keys outside the map's range ({@code clients/}, {@code init-lock}) are ignored, as a source
 * ignores them. Any shard count is accepted. Stateless and thread-safe.
 */
public final class TopologyListing {

  private TopologyListing() {}

  /**
   * The snapshot of a listing.
   *
   * @param keys the cluster's key layout
   * @param revision the store revision of the listing (its header revision), at least 0
   * @param keyValues every key of the listing with its value and mod revision
   * @throws TopologyUnavailableException if the listing has no {@code meta} ("cluster 'x' is not
   *     initialised ...")
   * @throws IncompatibleTopologyException if the meta is invalid, newer or of another routing
   */
  public static TopologySnapshot snapshot(
      TopologyKeys keys, long revision, Collection<KeyValue> keyValues) {
    Objects.requireNonNull(keys, "keys");
    List<KeyChange> entries = new ArrayList<>(keyValues.size());
    for (KeyValue keyValue : keyValues) {
      entries.add(
          KeyChange.put(
              keyValue.getKey().toString(StandardCharsets.UTF_8),
              keyValue.getValue().getBytes(),
              keyValue.getModRevision()));
    }
    return new TopologyState(keys, 0, Clock.systemUTC()).reset(revision, entries);
  }
}
