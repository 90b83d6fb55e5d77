package io.jumpgate.cli;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.TopologyDiff;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The text that {@code topology show} prints for humans: a summary, the node table, the assignments
 * with runs of consecutive shards that share leader, replicas and state folded into one row, and
 * the invalid entries.
 *
 * <pre>
 * cluster      it
 * revision     57
 * shards       16 (routing xxh64-jump, format 1)
 * nodes        3
 * unavailable  0 shards
 * invalid      0 entries
 *
 * NODE  ADDRESS         ZONE
 * n0    127.0.0.1:7000  az1
 *
 * SHARDS     LEADER  REPLICAS  EPOCH  STATE
 * 0000-0003  n0      n1          0-2  active
 * 0004       -       -             -  unavailable: assignment deleted at revision 40
 * </pre>
 *
 * <p>Text read from the cluster is shown through {@link KeyText#printable}. Stateless and
 * thread-safe.
 */
final class TopologyText {

  /** A run of consecutive shards with the same leader, replicas, state and availability. */
  record ShardRun(int first, int last, ShardRoute sample, long minEpoch, long maxEpoch) {

    /** {@code 0005} or {@code 0000-0003}. */
    String label() {
      return first == last
          ? TopologyDiff.shardLabel(first)
          : TopologyDiff.shardLabel(first) + "-" + TopologyDiff.shardLabel(last);
    }

    /** {@code 3} or {@code 0-2}; {@code -} when unavailable. */
    String epochs() {
      if (!sample.isAvailable()) {
        return "-";
      }
      return minEpoch == maxEpoch ? Long.toString(minEpoch) : minEpoch + "-" + maxEpoch;
    }
  }

  private TopologyText() {}

  /** Prints the whole text of {@code topology show}. */
  static void print(PrintWriter out, TopologySnapshot snapshot) {
    printSummary(out, snapshot);
    out.println();
    printNodes(out, snapshot);
    out.println();
    printAssignments(out, snapshot);
    if (!snapshot.invalidEntries().isEmpty()) {
      out.println();
      printInvalidEntries(out, snapshot.invalidEntries());
    }
    out.flush();
  }

  /** The summary lines: cluster, revision, shards, nodes, unavailable shards, invalid entries. */
  static void printSummary(PrintWriter out, TopologySnapshot snapshot) {
    TextTable table = new TextTable().column("cluster").column(snapshot.cluster());
    table.row("revision", Long.toString(snapshot.revision()));
    table.row(
        "shards",
        snapshot.shardCount()
            + " (routing "
            + KeyText.printable(snapshot.metadata().routing())
            + ", format "
            + snapshot.metadata().format()
            + ")");
    table.row("nodes", Integer.toString(snapshot.nodes().size()));
    table.row("unavailable", plural(snapshot.unavailableShardCount(), "shard", "shards"));
    table.row("invalid", plural(snapshot.invalidEntries().size(), "entry", "entries"));
    snapshot
        .migrationLock()
        .ifPresent(
            lock ->
                table.row(
                    "migration lock",
                    KeyText.printable(lock.migrationId())
                        + " held by "
                        + KeyText.printable(lock.owner())
                        + " since "
                        + KeyText.printable(lock.since())
                        + " (create revision "
                        + lock.createRevision()
                        + "), "
                        + plural(snapshot.heldShardCount(), "shard", "shards")
                        + " held"));
    table.printTo(out);
  }

  private static void printNodes(PrintWriter out, TopologySnapshot snapshot) {
    TextTable table = new TextTable().column("NODE").column("ADDRESS").column("ZONE");
    for (Map.Entry<String, NodeLoad.Load> entry : NodeLoad.of(snapshot).entrySet()) {
      Node node = entry.getValue().node();
      table.row(nodeLabel(entry.getValue()), KeyText.printable(node.address()), zone(node));
    }
    table.printTo(out);
  }

  private static void printAssignments(PrintWriter out, TopologySnapshot snapshot) {
    TextTable table =
        new TextTable()
            .column("SHARDS")
            .column("LEADER")
            .column("REPLICAS")
            .column("EPOCH", TextTable.Alignment.RIGHT)
            .column("STATE");
    for (ShardRun run : fold(snapshot.routes())) {
      ShardRoute route = run.sample();
      if (route.isAvailable()) {
        table.row(
            run.label(), route.leader().id(), replicaIds(route), run.epochs(), stateText(route));
      } else {
        table.row(
            run.label(),
            "-",
            "-",
            run.epochs(),
            "unavailable: " + KeyText.printable(route.unavailableReason()));
      }
    }
    table.printTo(out);
  }

  /** {@code INVALID ENTRIES} and one line per entry: {@code <key>: <reason>}. */
  static void printInvalidEntries(PrintWriter out, List<InvalidEntry> entries) {
    out.println("INVALID ENTRIES");
    for (InvalidEntry entry : entries) {
      out.println(KeyText.printable(entry.key()) + ": " + KeyText.printable(entry.reason()));
    }
  }

  /**
   * The routes as runs of consecutive shards with the same leader, replicas (in order), state and
   * availability (and reason); epochs may differ within a run.
   */
  static List<ShardRun> fold(List<ShardRoute> routes) {
    List<ShardRun> runs = new ArrayList<>();
    ShardRun current = null;
    for (ShardRoute route : routes) {
      if (current != null && sameRun(current.sample(), route)) {
        current =
            new ShardRun(
                current.first(),
                route.shard(),
                current.sample(),
                Math.min(current.minEpoch(), route.epoch()),
                Math.max(current.maxEpoch(), route.epoch()));
      } else {
        if (current != null) {
          runs.add(current);
        }
        current = new ShardRun(route.shard(), route.shard(), route, route.epoch(), route.epoch());
      }
    }
    if (current != null) {
      runs.add(current);
    }
    return runs;
  }

  private static boolean sameRun(ShardRoute a, ShardRoute b) {
    if (a.isAvailable() != b.isAvailable()) {
      return false;
    }
    if (!a.isAvailable()) {
      return a.unavailableReason().equals(b.unavailableReason());
    }
    return a.leader().id().equals(b.leader().id())
        && a.state() == b.state()
        && stateText(a).equals(stateText(b))
        && replicaIds(a).equals(replicaIds(b));
  }

  /** {@code active}, or {@code frozen, migration m1 to n3} while a migration moves the shard. */
  static String stateText(ShardRoute route) {
    if (route.migration() == null) {
      return route.state().wireName();
    }
    return route.state().wireName()
        + ", migration "
        + KeyText.printable(route.migration().id())
        + " to "
        + route.migration().to().id();
  }

  /** The replica ids, comma-separated; {@code -} for none. */
  static String replicaIds(ShardRoute route) {
    if (route.replicas().isEmpty()) {
      return "-";
    }
    List<String> ids = new ArrayList<>();
    for (Node replica : route.replicas()) {
      ids.add(replica.id());
    }
    return String.join(",", ids);
  }

  /** The node id, with {@code (removed)} for a node that only routes still name. */
  static String nodeLabel(NodeLoad.Load load) {
    return load.node().id() + (load.inNodeTable() ? "" : " (removed)");
  }

  /** The zone, or {@code -}. */
  static String zone(Node node) {
    return node.zone() == null ? "-" : KeyText.printable(node.zone());
  }

  /** {@code 1 entry}, {@code 0 entries}. */
  static String plural(long count, String one, String many) {
    return count + " " + (count == 1 ? one : many);
  }

  /** {@code cluster 'it' revision 57}. */
  static String identify(TopologySnapshot snapshot) {
    return "cluster '" + snapshot.cluster() + "' revision " + snapshot.revision();
  }

  /** The problems that make a map fail validation: invalid entries and unavailable shards. */
  static List<String> problems(TopologySnapshot snapshot) {
    List<String> problems = new ArrayList<>();
    for (InvalidEntry entry : snapshot.invalidEntries()) {
      problems.add(
          "invalid entry "
              + KeyText.printable(entry.key())
              + ": "
              + KeyText.printable(entry.reason()));
    }
    for (ShardRun run : fold(snapshot.routes())) {
      if (!run.sample().isAvailable()) {
        problems.add(
            (run.first() == run.last() ? "shard " : "shards ")
                + run.label()
                + " unavailable: "
                + KeyText.printable(Objects.requireNonNull(run.sample().unavailableReason())));
      }
    }
    return problems;
  }
}
