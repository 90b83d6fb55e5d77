package io.jumpgate.bench.timing;

import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The lines {@link MoverChildMain} prints and {@link MoverChild} reads: one record a line, fields
 * separated by spaces, sets as comma-separated lists ({@code -} for an empty one). Only the fields
 * the run measures travel: a group's blockers and other connections do not. Stateless.
 */
final class MoverChildProtocol {

  static final String READY = "mover-child READY ";
  static final String PHASE = "mover-child PHASE ";
  static final String PROGRESS = "mover-child PROGRESS ";
  static final String GROUP = "mover-child GROUP ";
  static final String MOVE = "mover-child MOVE ";
  static final String DONE = "mover-child DONE ";
  static final String FAILED = "mover-child FAILED ";

  private MoverChildProtocol() {}

  static String progressLine(MoveProgress progress) {
    return PROGRESS
        + String.join(
            " ",
            orDash(progress.migrationId()),
            progress.phase().name(),
            String.valueOf(progress.shardsTotal()),
            String.valueOf(progress.shardsCutOver()),
            String.valueOf(progress.shardsNotMoved()),
            String.valueOf(progress.groupsAttempted()),
            String.valueOf(progress.groupsGivenUp()),
            String.valueOf(progress.keysCopied()),
            String.valueOf(progress.keysRecopied()),
            String.valueOf(progress.bytesCopied()),
            String.valueOf(progress.keysPending()),
            String.valueOf(progress.keysCleanedUp()),
            String.valueOf(progress.writesAfterCutover()));
  }

  static MoveProgress parseProgress(String line) {
    String[] f = fields(line, PROGRESS, 13);
    return new MoveProgress(
        fromDash(f[0]),
        MovePhase.valueOf(f[1]),
        Integer.parseInt(f[2]),
        Integer.parseInt(f[3]),
        Integer.parseInt(f[4]),
        Integer.parseInt(f[5]),
        Integer.parseInt(f[6]),
        Long.parseLong(f[7]),
        Long.parseLong(f[8]),
        Long.parseLong(f[9]),
        Long.parseLong(f[10]),
        Long.parseLong(f[11]),
        Long.parseLong(f[12]));
  }

  static String groupLine(GroupOutcome group) {
    return GROUP
        + String.join(
            " ",
            join(group.shards()),
            group.source(),
            group.target(),
            String.valueOf(group.attempt()),
            String.valueOf(group.cutOver()),
            String.valueOf(group.freezeRevision()),
            String.valueOf(group.acknowledgementWait().toNanos()),
            String.valueOf(group.freezeDuration().toNanos()));
  }

  static GroupOutcome parseGroup(String line) {
    String[] f = fields(line, GROUP, 8);
    return new GroupOutcome(
        parseSet(f[0]),
        f[1],
        f[2],
        Integer.parseInt(f[3]),
        Boolean.parseBoolean(f[4]),
        Long.parseLong(f[5]),
        Duration.ofNanos(Long.parseLong(f[6])),
        Duration.ofNanos(Long.parseLong(f[7])),
        List.of(),
        List.of());
  }

  /** The move's own fields; its groups are the GROUP lines before it, its progress the last one. */
  static String moveLine(MoveResult move) {
    return MOVE
        + String.join(
            " ",
            orDash(move.migrationId()),
            join(move.shardsCutOver()),
            joinKeys(move.shardsNotMoved()),
            move.writesAfterCutover().isEmpty()
                ? "-"
                : MoverChildMain.joinCounts(move.writesAfterCutover()),
            String.valueOf(move.elapsed().toNanos()),
            progressLine(move.progress()).substring(PROGRESS.length()).replace(' ', '/'));
  }

  static MoveResult parseMove(String line, List<GroupOutcome> groups) {
    String[] f = fields(line, MOVE, 6);
    SortedMap<Integer, String> notMoved = new TreeMap<>();
    for (Integer shard : parseSet(f[2])) {
      notMoved.put(shard, "not moved (reason not carried by the child protocol)");
    }
    SortedMap<Integer, Long> writes = new TreeMap<>();
    if (!"-".equals(f[3])) {
      for (String pair : f[3].split(",")) {
        String[] parts = pair.split(":");
        writes.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
      }
    }
    return new MoveResult(
        fromDash(f[0]),
        parseSet(f[1]),
        notMoved,
        new ArrayList<>(groups),
        parseProgress(PROGRESS + f[5].replace('/', ' ')),
        writes,
        Duration.ofNanos(Long.parseLong(f[4])));
  }

  static SortedSet<Integer> parseSet(String text) {
    SortedSet<Integer> set = new TreeSet<>();
    if (!"-".equals(text) && !text.isEmpty()) {
      for (String item : text.split(",")) {
        set.add(Integer.parseInt(item));
      }
    }
    return set;
  }

  private static String join(SortedSet<Integer> shards) {
    if (shards.isEmpty()) {
      return "-";
    }
    StringBuilder text = new StringBuilder();
    for (Integer shard : shards) {
      if (text.length() > 0) {
        text.append(',');
      }
      text.append(shard);
    }
    return text.toString();
  }

  private static String joinKeys(SortedMap<Integer, String> shards) {
    return join(new TreeSet<>(shards.keySet()));
  }

  private static String orDash(String text) {
    return text == null || text.isEmpty() ? "-" : text;
  }

  private static String fromDash(String text) {
    return "-".equals(text) ? "" : text;
  }

  private static String[] fields(String line, String prefix, int count) {
    if (!line.startsWith(prefix)) {
      throw new IllegalArgumentException("not a " + prefix.trim() + " line: " + line);
    }
    String[] fields = line.substring(prefix.length()).split(" ");
    if (fields.length != count) {
      throw new IllegalArgumentException(
          "expected "
              + count
              + " fields after "
              + prefix.trim()
              + ", got "
              + fields.length
              + ": "
              + line);
    }
    return fields;
  }
}
