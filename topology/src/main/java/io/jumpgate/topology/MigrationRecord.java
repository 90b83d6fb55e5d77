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
 * <p>This implementation adds one optional field, read only by movers: {@code
 * "notifyKeyspaceEvents":{"node-a":""}}, each source's {@code notify-keyspace-events} as the first
 * mover found it, before it switched on change capture. A mover that resumes or aborts the
 * migration of a dead one puts that value back, instead of the dead mover's. Records without it
 * (written by older movers) stay readable: the map is then empty.
 *
 * <p>Immutable and thread-safe.
 *
 * @param shards each shard's move, by shard id; copied into an unmodifiable map sorted by shard id
 * @param created when the migration was created, as written (ISO-8601 by convention)
 * @param mode how the data moves, e.g. {@code "online"}
 * @param notifyKeyspaceEvents each source's original {@code notify-keyspace-events}, by node id
 *     (the value may be empty: no notification); copied into an unmodifiable map sorted by node id
 */
public record MigrationRecord(
    Map<Integer, ShardMove> shards,
    String created,
    String mode,
    Map<String, String> notifyKeyspaceEvents) {

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
    notifyKeyspaceEvents = copySettings(notifyKeyspaceEvents);
  }

  /**
   * A record without the sources' original {@code notify-keyspace-events}, as older movers wrote.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public MigrationRecord(Map<Integer, ShardMove> shards, String created, String mode) {
    this(shards, created, mode, Map.of());
  }

  /** This record with one shard's move replaced (or added). */
  public MigrationRecord withShard(int shard, ShardMove move) {
    Map<Integer, ShardMove> changed = new TreeMap<>(shards);
    changed.put(shard, move);
    return new MigrationRecord(changed, created, mode, notifyKeyspaceEvents);
  }

  private static SortedMap<String, String> copySettings(Map<String, String> settings) {
    Objects.requireNonNull(settings, "notifyKeyspaceEvents");
    SortedMap<String, String> copy = new TreeMap<>();
    for (Map.Entry<String, String> entry : settings.entrySet()) {
      String nodeId = entry.getKey();
      requireNodeId(nodeId, "notifyKeyspaceEvents");
      copy.put(
          nodeId,
          Objects.requireNonNull(entry.getValue(), "notify-keyspace-events of node " + nodeId));
    }
    return Collections.unmodifiableSortedMap(copy);
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
