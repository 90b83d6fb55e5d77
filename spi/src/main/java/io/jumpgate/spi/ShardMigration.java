package io.jumpgate.spi;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The migration a shard is part of while it is {@link ShardState#MIGRATING} or {@link
 * ShardState#FROZEN}: the contract's {@code "migration":{"id":"<migration-id>","to":"<node-id>"}}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id the migration id, {@link #ID_PATTERN}; it names the record under {@code
 *     <root>/migrations/} and the migration the lock must name for a freeze to hold
 * @param to the node the shard's data is copied to, and its leader after the cutover
 */
public record ShardMigration(String id, Node to) {

  /** Migration id syntax: {@code [A-Za-z0-9._-]{1,64}}. */
  public static final Pattern ID_PATTERN = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /**
   * @throws IllegalArgumentException if the id does not match {@link #ID_PATTERN}
   */
  public ShardMigration {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(to, "to");
    if (!ID_PATTERN.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "migration id must match " + ID_PATTERN.pattern() + ", was '" + id + "'");
    }
  }
}
