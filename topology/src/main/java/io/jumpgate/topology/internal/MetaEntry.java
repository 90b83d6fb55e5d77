package io.jumpgate.topology.internal;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyEntryException;
import io.jumpgate.topology.TopologyKeys;

/**
 * The rules of {@code <root>/meta}: the first valid meta must be one this client can serve, and it
 * is never changed afterwards (a later change or delete is reported and the first meta stays).
 *
 * <p>Not thread-safe: confined to the topology thread with its {@link TopologyState}.
 */
final class MetaEntry {

  private final TopologyKeys keys;
  private final int expectedShards;
  private TopologyMetadata metadata;

  MetaEntry(TopologyKeys keys, int expectedShards) {
    this.keys = keys;
    this.expectedShards = expectedShards;
  }

  /** The meta in force, or null before {@link #initialise}. */
  TopologyMetadata metadata() {
    return metadata;
  }

  /**
   * Takes the cluster's first meta.
   *
   * @param value the meta's value, or null when the key does not exist
   * @throws TopologyUnavailableException when there is no meta
   * @throws IncompatibleTopologyException when the meta is invalid, newer, routed otherwise, or of
   *     another shard count than expected
   */
  TopologyMetadata initialise(byte[] value) {
    String cluster = "cluster '" + keys.cluster() + "'";
    if (value == null) {
      throw new TopologyUnavailableException(
          cluster + " is not initialised at " + keys.root() + " — run `jumpgate init`");
    }
    TopologyMetadata found = MetaRules.usable(value, keys, cluster, MetaRules.Reader.CLIENT);
    if (expectedShards != 0 && found.shards() != expectedShards) {
      throw new IncompatibleTopologyException(
          cluster
              + " has "
              + found.shards()
              + " shards, but the client is configured for "
              + expectedShards);
    }
    metadata = found;
    return found;
  }

  /** The meta key was written or deleted after {@link #initialise}. */
  void apply(KeyChange change, long revision, InvalidEntries invalid) {
    String key = change.key();
    if (change.isDelete()) {
      invalid.report(
          key,
          "meta deleted at revision " + revision + "; the meta written by init stays in force",
          revision);
      return;
    }
    try {
      TopologyMetadata found = TopologyCodec.decodeMetadata(change.value());
      if (found.equals(metadata)) {
        invalid.clear(key);
      } else {
        invalid.report(
            key,
            "meta is never changed after init: it was "
                + describe(metadata)
                + ", the new value says "
                + describe(found),
            change.modRevision());
      }
    } catch (TopologyEntryException e) {
      invalid.report(key, e.getMessage(), change.modRevision());
    }
  }

  private static String describe(TopologyMetadata meta) {
    return "format "
        + meta.format()
        + ", "
        + meta.shards()
        + " shards, routing '"
        + MetaRules.excerpt(meta.routing())
        + "'";
  }
}
