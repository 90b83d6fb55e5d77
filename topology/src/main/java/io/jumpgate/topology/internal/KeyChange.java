package io.jumpgate.topology.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One key of a topology store as read (a listing entry) or as changed (a watch event).
 *
 * <p>Immutable by convention: the value array is not copied, and neither the producer nor the
 * consumer may change it after construction.
 *
 * @param key the full key, e.g. {@code /jumpgate/default/shards/0007}
 * @param value the raw value (UTF-8 JSON), or null for a delete
 * @param modRevision the etcd revision that wrote the value (for a delete: the revision of the
 *     delete); 0 when the store has no revisions (a file)
 * @param createRevision the etcd revision that created the key, when known (a listing or a put
 *     event); 0 when unknown or for a delete. Only the migration lock's is used.
 */
public record KeyChange(String key, byte[] value, long modRevision, long createRevision) {

  public KeyChange {
    Objects.requireNonNull(key, "key");
    if (modRevision < 0) {
      throw new IllegalArgumentException(
          "modRevision of '" + key + "' must be at least 0, was " + modRevision);
    }
    if (createRevision < 0) {
      throw new IllegalArgumentException(
          "createRevision of '" + key + "' must be at least 0, was " + createRevision);
    }
  }

  /** A change whose create revision is not known (0). */
  public KeyChange(String key, byte[] value, long modRevision) {
    this(key, value, modRevision, 0);
  }

  /** A key written with {@code value} at {@code modRevision}. */
  public static KeyChange put(String key, byte[] value, long modRevision) {
    return new KeyChange(key, Objects.requireNonNull(value, "value"), modRevision);
  }

  /** A key deleted at {@code modRevision}. */
  public static KeyChange delete(String key, long modRevision) {
    return new KeyChange(key, null, modRevision);
  }

  /** One put per entry, every one at {@code modRevision}, in the map's order. */
  public static List<KeyChange> puts(Map<String, byte[]> entries, long modRevision) {
    List<KeyChange> changes = new ArrayList<>(entries.size());
    for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
      changes.add(put(entry.getKey(), entry.getValue(), modRevision));
    }
    return changes;
  }

  /** Whether this is a delete. */
  public boolean isDelete() {
    return value == null;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KeyChange change
        && key.equals(change.key)
        && modRevision == change.modRevision
        && createRevision == change.createRevision
        && Arrays.equals(value, change.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, modRevision, createRevision) * 31 + Arrays.hashCode(value);
  }

  /** The key, revision and value size; never the value itself. */
  @Override
  public String toString() {
    return "KeyChange{"
        + key
        + (value == null ? " deleted" : " " + value.length + " bytes")
        + " at revision "
        + modRevision
        + "}";
  }
}
