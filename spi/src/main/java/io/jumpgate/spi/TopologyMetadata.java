package io.jumpgate.spi;

import java.util.Objects;

/**
 * A cluster's fixed parameters, written once by {@code init} and never changed afterwards.
 *
 * <p>Immutable and thread-safe.
 *
 * @param format the schema format, 1 for the format this release reads and writes
 * @param shards the number of virtual shards, 1 to 65536
 * @param routing the routing scheme, {@code "xxh64-jump"}
 */
public record TopologyMetadata(int format, int shards, String routing) {

  /** The schema format this release reads and writes. */
  public static final int CURRENT_FORMAT = 1;

  /** The largest shard count a cluster may have. */
  public static final int MAX_SHARDS = 65536;

  /** The routing scheme of format 1. */
  public static final String XXH64_JUMP = "xxh64-jump";

  /**
   * @throws IllegalArgumentException naming the field, when a value is out of range
   */
  public TopologyMetadata {
    Objects.requireNonNull(routing, "routing");
    if (format < 1) {
      throw new IllegalArgumentException("format must be at least 1, was " + format);
    }
    if (shards < 1 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException(
          "shards must be between 1 and " + MAX_SHARDS + ", was " + shards);
    }
  }

  /** Format 1 metadata for {@code shards} shards routed by {@code xxh64-jump}. */
  public static TopologyMetadata of(int shards) {
    return new TopologyMetadata(CURRENT_FORMAT, shards, XXH64_JUMP);
  }
}
