package io.jumpgate.spi;

import java.util.Objects;

/**
 * A topology entry that failed validation and was kept out of the snapshot. The last valid value of
 * the same key, if there was one, is still in force.
 *
 * <p>Immutable and thread-safe.
 *
 * @param key the full etcd key (or file entry name), e.g. {@code /jumpgate/default/shards/0007}
 * @param reason what is wrong with it, naming the field and value
 * @param modRevision the etcd revision that wrote the invalid value (0 when unknown)
 */
public record InvalidEntry(String key, String reason, long modRevision) {
  public InvalidEntry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(reason, "reason");
  }
}
