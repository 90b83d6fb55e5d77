package io.jumpgate.cli;

import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.jumpgate.topology.TopologyDiff;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate topology watch}: prints the current revision, then the changes of every new
 * revision as it arrives, one block per revision ({@link TopologyDiff#lines()}, each line prefixed
 * with {@code revision N: }), flushing stdout after each block. With {@code --json}: one JSON
 * object per revision and line ({@link SnapshotJson#writeCurrent}, then {@link
 * SnapshotJson#writeDiff}).
 *
 * <p>The revision is the map's (changes to meta, nodes/ and shards/). A change of the migration
 * lock alone leaves it as it is: it is printed as {@code revision N, map unchanged: migration lock
 * ..} (JSON: {@link SnapshotJson#writeLockChange}) and not counted by {@code --count}, which counts
 * new map revisions only.
 *
 * <p>While the source cannot read (etcd unreachable, a file that does not load), one line on stderr
 * says so, and one more when it reads again; the last map stays in force meanwhile.
 *
 * <p>Runs until Ctrl-C, {@code --count} revisions or {@code --for} a duration. On Ctrl-C a shutdown
 * hook stops the loop and waits (up to {@link #SHUTDOWN_WAIT}) for the source to be closed.
 *
 * <p>Threading: the source's thread only queues each new snapshot (it never blocks); the thread
 * that runs the verb prints. Picocli fills one instance per invocation; use it once.
 */
@Command(
    name = "watch",
    description = {
      "Prints the current revision of the shard map, then the changes of each new revision as"
          + " they arrive, until Ctrl-C, --count or --for."
    },
    footer = {
      "",
      "Each change is one line, e.g.:",
      "  revision 57: shard 0005 leader n1 -> n0 (epoch 3 -> 4)",
      "  revision 58: node n3 added 127.0.0.1:7003",
      "  revision 59: node n2 address 127.0.0.1:7002 -> 127.0.0.1:7012",
      "  revision 60: invalid: /jumpgate/prod/shards/0007: leader 'n9' is not in the node table",
      "A change of the migration lock alone keeps the map's revision, is not counted by --count:",
      "  revision 57, map unchanged: migration lock none -> m1 (owner app-1:4242)",
      "With --json, one JSON object per revision and line (the first has \"current\":true;",
      "a lock change has \"mapChanged\":false).",
      "",
      "Examples:",
      "  jumpgate topology watch --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate topology watch --json --count 1 --for 30s --etcd http://127.0.0.1:2379"
    })
public final class TopologyWatchCommand implements Callable<Integer> {

  /** How long Ctrl-C waits for the source to close. */
  static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(3);

  /** How often the source's status is looked at while no revision arrives. */
  private static final Duration STATUS_CHECK = Duration.ofMillis(500);

  /** A new snapshot, as the source announced it; {@link #STOP} ends the loop. */
  private record Update(TopologySnapshot snapshot) {}

  private static final Update STOP = new Update(null);

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private TopologyFileOption file;

  @Option(names = "--json", description = "One JSON object per revision and line.")
  private boolean json;

  private int count;

  @Option(
      names = "--count",
      paramLabel = "N",
      description =
          "Stop after N new map revisions (the current one and lock-only changes not counted).")
  void setCount(String value) {
    count = OptionValues.intInRange(spec, "--count", value, 1, Integer.MAX_VALUE);
  }

  @Option(
      names = "--for",
      paramLabel = "DURATION",
      description = "Stop after DURATION, e.g. 30s, 5m, 1h.")
  private String duration;

  @Override
  public Integer call() {
    TopologyInput input = TopologyInput.resolve(spec, etcd, file);
    Duration limit =
        duration == null ? null : OptionValues.positiveDuration(spec, "--for", duration);
    BlockingQueue<Update> updates = new LinkedBlockingQueue<>();
    CountDownLatch closed = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              updates.add(STOP);
              try {
                closed.await(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "jumpgate-watch-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    TopologySource source = input.create();
    try {
      source.subscribe((previous, current) -> updates.add(new Update(current)));
      long deadline = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
      TopologySnapshot first = input.awaitFirst(source);
      watch(source, input, first, updates, deadline);
    } finally {
      TopologyInput.close(source);
      closed.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running
      }
    }
    return ExitCodes.OK;
  }

  private void watch(
      TopologySource source,
      TopologyInput input,
      TopologySnapshot first,
      BlockingQueue<Update> updates,
      long deadline) {
    PrintWriter out = spec.commandLine().getOut();
    printCurrent(out, first);
    TopologySnapshot last = first;
    String reportedError = null;
    int printed = 0;
    while (count == 0 || printed < count) {
      Update update;
      try {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return;
        }
        update = updates.poll(Math.min(remaining, STATUS_CHECK.toNanos()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (update == STOP) {
        return;
      }
      reportedError = reportStatus(source.status(), reportedError, input, last);
      if (update == null
          || update.snapshot() == last
          || update.snapshot().revision() < last.revision()) {
        continue; // no news, or the first snapshot announced again
      }
      if (printUpdate(out, json, last, update.snapshot())) {
        printed++;
      }
      last = update.snapshot();
    }
  }

  /**
   * Prints what changed from {@code last} to {@code next}: a new map revision as {@code revision N:
   * <change>} lines (JSON: {@link SnapshotJson#writeDiff}); a snapshot at the same map revision
   * that changed the migration lock as {@code revision N, map unchanged: migration lock ..} (JSON:
   * {@link SnapshotJson#writeLockChange}); a snapshot that changed nothing (a listing again) not at
   * all.
   *
   * @return whether {@code next} is a new map revision, the unit that {@code --count} counts
   */
  static boolean printUpdate(
      PrintWriter out, boolean json, TopologySnapshot last, TopologySnapshot next) {
    TopologyDiff diff = TopologyDiff.between(last, next);
    boolean newRevision = diff.revisionAfter() != diff.revisionBefore();
    if (newRevision) {
      printChange(out, json, diff);
    } else if (!diff.isEmpty()) {
      // The map's revision moves with changes of the map only (meta, nodes/, shards/): at the same
      // revision only the migration lock can have changed.
      printLockChange(out, json, diff);
    }
    return newRevision;
  }

  /**
   * Tells stderr when the source meets an error (etcd unreachable, a file that does not load) and
   * when it is fine again; each once.
   *
   * @return the error now reported, or null
   */
  private String reportStatus(
      TopologySourceStatus status,
      String reportedError,
      TopologyInput input,
      TopologySnapshot last) {
    String error = status.lastError();
    if (Objects.equals(error, reportedError)) {
      return reportedError;
    }
    PrintWriter err = spec.commandLine().getErr();
    String name = spec.qualifiedName() + ": ";
    if (error == null) {
      err.println(name + "reading " + input.description() + " again");
    } else {
      err.println(
          name
              + (status.connected() ? "" : "lost contact: ")
              + KeyText.printable(error)
              + "; revision "
              + last.revision()
              + " stays in force, still watching");
    }
    err.flush();
    return error;
  }

  private void printCurrent(PrintWriter out, TopologySnapshot snapshot) {
    if (json) {
      JsonOutput.writeLine(out, generator -> SnapshotJson.writeCurrent(generator, snapshot));
      return;
    }
    out.println(
        "revision "
            + snapshot.revision()
            + ": current map of cluster '"
            + snapshot.cluster()
            + "': "
            + TopologyText.plural(snapshot.shardCount(), "shard", "shards")
            + ", "
            + TopologyText.plural(snapshot.nodes().size(), "node", "nodes")
            + ", "
            + TopologyText.plural(
                snapshot.unavailableShardCount(), "unavailable shard", "unavailable shards")
            + ", "
            + TopologyText.plural(
                snapshot.invalidEntries().size(), "invalid entry", "invalid entries"));
    out.flush();
  }

  private static void printLockChange(PrintWriter out, boolean json, TopologyDiff diff) {
    if (json) {
      JsonOutput.writeLine(out, generator -> SnapshotJson.writeLockChange(generator, diff));
      return;
    }
    String prefix = "revision " + diff.revisionAfter() + ", map unchanged: ";
    for (String line : diff.lines()) {
      out.println(prefix + KeyText.printable(line));
    }
    out.flush();
  }

  private static void printChange(PrintWriter out, boolean json, TopologyDiff diff) {
    if (json) {
      JsonOutput.writeLine(out, generator -> SnapshotJson.writeDiff(generator, diff));
      return;
    }
    String prefix = "revision " + diff.revisionAfter() + ": ";
    if (diff.isEmpty()) {
      out.println(prefix + "no change to the map");
    }
    for (String line : diff.lines()) {
      out.println(prefix + KeyText.printable(line));
    }
    out.flush();
  }
}
