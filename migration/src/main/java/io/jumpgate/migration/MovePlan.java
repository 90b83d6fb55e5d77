package io.jumpgate.migration;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link Mover} moves: a migration id and, for each shard, the node its data leaves and the
 * node it goes to (node ids of the map in etcd; their addresses are read from the map).
 *
 * <p>Immutable and thread-safe. Built with {@link #builder(String)}, which fails fast on a bad id,
 * a shard given twice or a move to the same node.
 *
 * @param migrationId the migration's id ({@link ShardMigration#ID_PATTERN})
 * @param moves each shard's move, sorted by shard id, at least one
 */
public record MovePlan(String migrationId, SortedMap<Integer, ShardMove> moves) {

  /**
   * One shard's move.
   *
   * @param from node id of the shard's leader now
   * @param to node id of the node that will lead it, never {@code from}
   */
  public record ShardMove(String from, String to) {

    /**
     * @throws IllegalArgumentException naming the node id at fault
     */
    public ShardMove {
      requireNodeId(from, "from");
      requireNodeId(to, "to");
      if (from.equals(to)) {
        throw new IllegalArgumentException("a shard cannot move from '" + from + "' to itself");
      }
    }
  }

  /**
   * @throws IllegalArgumentException if the id does not match, there is no move, or a shard id is
   *     negative
   */
  public MovePlan {
    Objects.requireNonNull(migrationId, "migrationId");
    Objects.requireNonNull(moves, "moves");
    if (!ShardMigration.ID_PATTERN.matcher(migrationId).matches()) {
      throw new IllegalArgumentException(
          "migration id must match "
              + ShardMigration.ID_PATTERN.pattern()
              + ", was '"
              + migrationId
              + "'");
    }
    if (moves.isEmpty()) {
      throw new IllegalArgumentException("migration '" + migrationId + "' moves no shard");
    }
    SortedMap<Integer, ShardMove> copy = new TreeMap<>();
    for (Map.Entry<Integer, ShardMove> move : moves.entrySet()) {
      int shard = Objects.requireNonNull(move.getKey(), "shard");
      if (shard < 0) {
        throw new IllegalArgumentException("shard id must be at least 0, was " + shard);
      }
      copy.put(shard, Objects.requireNonNull(move.getValue(), "move of shard " + shard));
    }
    moves = Collections.unmodifiableSortedMap(copy);
  }

  /** A builder for the plan of migration {@code migrationId}. */
  public static Builder builder(String migrationId) {
    return new Builder(migrationId);
  }

  private static void requireNodeId(String nodeId, String field) {
    Objects.requireNonNull(nodeId, field);
    if (!Node.ID_PATTERN.matcher(nodeId).matches()) {
      throw new IllegalArgumentException(
          "'"
              + field
              + "' must be a node id matching "
              + Node.ID_PATTERN.pattern()
              + ", was '"
              + nodeId
              + "'");
    }
  }

  /** Collects moves; not thread-safe. */
  public static final class Builder {

    private final String migrationId;
    private final SortedMap<Integer, ShardMove> moves = new TreeMap<>();

    private Builder(String migrationId) {
      this.migrationId = migrationId;
    }

    /**
     * Moves {@code shard} from node {@code from} to node {@code to}.
     *
     * @throws IllegalArgumentException if the shard was given already, or a node id is invalid
     */
    public Builder move(int shard, String from, String to) {
      ShardMove move = new ShardMove(from, to);
      ShardMove earlier = moves.putIfAbsent(shard, move);
      if (earlier != null) {
        throw new IllegalArgumentException(
            "shard " + shard + " is moved twice: " + earlier + " and " + move);
      }
      return this;
    }

    public MovePlan build() {
      return new MovePlan(migrationId, moves);
    }
  }
}
