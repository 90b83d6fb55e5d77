package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A mover's persistent record of one migration, {@code <root>/migrations/<migration-id>}: {@code
 * {"shards":{"17":{"from":"node-a","to":"node-d","phase":"copying"}},"created":"...",
 * "mode":"online"}}. It lets another mover resume: shards already cut over are only cleaned up, the
 * others are copied again from the start. Encoded and decoded by {@link MigrationCodec}; read and
 * written with compare-and-set by {@link MigrationStore}.
 *
 * <p>The contract fixes the fields, not the vocabulary of {@code phase} and {@code mode}: the mover
 * owns them ({@code "copying"} and {@code "online"} are the contract's examples), so they are kept
 * as text.
 *
 * <p>Immutable and thread-safe.
 *
 * @param shards each shard's move, by shard id; copied into an unmodifiable map sorted by shard id
 * @param created when the migration was created, as written (ISO-8601 by convention)
 * @param mode how the data moves, e.g. {@code "online"}
 */
public record MigrationRecord(Map<Integer, ShardMove> shards, String created, String mode) {

  /**
   * One shard's move in a record.
   *
   * @param from node id of the leader the data leaves
   * @param to node id of the node the data goes to, never {@code from}
   * @param phase where the mover is with this shard, e.g. {@code "copying"}; not blank
   */
  public record ShardMove(String from, String to, String phase) {

    /**
     * @throws IllegalArgumentException naming the value at fault
     */
    public ShardMove {
      requireNodeId(from, "from");
      requireNodeId(to, "to");
      if (from.equals(to)) {
        throw new IllegalArgumentException("a shard cannot move from '" + from + "' to itself");
      }
      requireText(phase, "phase");
    }

    /** This move in another phase. */
    public ShardMove withPhase(String newPhase) {
      return new ShardMove(from, to, newPhase);
    }
  }

  /**
   * @throws IllegalArgumentException if a shard id is negative, or {@code created} or {@code mode}
   *     is blank
   */
  public MigrationRecord {
    shards = copy(shards);
    requireText(created, "created");
    requireText(mode, "mode");
  }

  /** This record with one shard's move replaced (or added). */
  public MigrationRecord withShard(int shard, ShardMove move) {
    Map<Integer, ShardMove> changed = new TreeMap<>(shards);
    changed.put(shard, move);
    return new MigrationRecord(changed, created, mode);
  }

  private static SortedMap<Integer, ShardMove> copy(Map<Integer, ShardMove> shards) {
    Objects.requireNonNull(shards, "shards");
    SortedMap<Integer, ShardMove> copy = new TreeMap<>();
    for (Map.Entry<Integer, ShardMove> entry : shards.entrySet()) {
      int shard = Objects.requireNonNull(entry.getKey(), "shard id");
      if (shard < 0) {
        throw new IllegalArgumentException("shard id must be at least 0, was " + shard);
      }
      copy.put(shard, Objects.requireNonNull(entry.getValue(), "move of shard " + shard));
    }
    return Collections.unmodifiableSortedMap(copy);
  }

  private static void requireNodeId(String nodeId, String field) {
    Objects.requireNonNull(nodeId, field);
    if (!Node.ID_PATTERN.matcher(nodeId).matches()) {
      throw new IllegalArgumentException(
          "\""
              + field
              + "\" must be a node id matching "
              + Node.ID_PATTERN.pattern()
              + ", was '"
              + TopologyJson.excerpt(nodeId)
              + "'");
    }
  }

  private static String requireText(String text, String field) {
    Objects.requireNonNull(text, field);
    if (text.isBlank()) {
      throw new IllegalArgumentException("\"" + field + "\" must not be blank");
    }
    return text;
  }
}
