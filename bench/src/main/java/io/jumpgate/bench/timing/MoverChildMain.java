package io.jumpgate.bench.timing;

import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.spi.Node;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The mover of {@link MigrationRun} {@code --mover-process}, in a JVM of its own as an operator's
 * {@code jumpgate add-node --apply} would be: it plans the add-node, prints {@value
 * MoverChildProtocol#READY} with the shards that move, waits for a line {@code GO} on stdin,
 * applies it, and prints the mover's phases, its progress every {@value
 * MoveProgressSampler#PERIOD_MILLIS} ms, each move's cutover attempts and figures, and a last line
 * (see {@link MoverChildProtocol}).
 *
 * <pre>
 * MoverChildMain ENDPOINTS CLUSTER NODE_ID HOST PORT [the mover flags of MigrationRun]
 * </pre>
 *
 * Exit status 0 when the change was applied, 1 when it failed, 2 for bad arguments.
 */
public final class MoverChildMain {

  private MoverChildMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    MoverOptions options;
    EtcdTopologyOptions etcd;
    Node node;
    try {
      if (args.length < 5) {
        throw new IllegalArgumentException(
            "MoverChildMain: needs ENDPOINTS CLUSTER NODE_ID HOST PORT [mover flags]");
      }
      etcd = EtcdTopologyOptions.builder().endpoints(args[0]).cluster(args[1]).build();
      node = Node.of(args[2], args[3], Integer.parseInt(args[4]));
      List<String> rest = new ArrayList<>(List.of(args).subList(5, args.length));
      options = MoverFlags.parse("MoverChildMain", rest).options();
      if (!rest.isEmpty()) {
        throw new IllegalArgumentException("MoverChildMain: unknown arguments " + rest);
      }
    } catch (IllegalArgumentException e) {
      out.println(MoverChildProtocol.FAILED + e.getMessage());
      out.flush();
      System.exit(2);
      return;
    }
    MoveListener listener =
        new MoveListener() {
          @Override
          public void phaseStarted(MovePhase phase) {
            synchronized (out) {
              out.println(MoverChildProtocol.PHASE + phase.name());
              out.flush();
            }
          }
        };
    int status;
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "mover-child-progress");
              thread.setDaemon(true);
              return thread;
            });
    try (MapChangeMover changes = MapChangeMover.create(etcd, options, listener)) {
      MapChangeMover.Planned planned = changes.plan(MapChange.addNode(node));
      String moving =
          planned
              .leaderMoves()
              .map(
                  plan ->
                      plan.moves().keySet().stream()
                          .map(String::valueOf)
                          .collect(Collectors.joining(",")))
              .orElse("");
      out.println(MoverChildProtocol.READY + moving);
      out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String go = in.readLine();
      if (!"GO".equals(go)) {
        out.println(MoverChildProtocol.FAILED + "expected GO on stdin, read " + go);
        out.flush();
        System.exit(2);
        return;
      }
      sampler.scheduleAtFixedRate(
          () -> {
            String line = MoverChildProtocol.progressLine(changes.mover().progress());
            synchronized (out) {
              out.println(line);
              out.flush();
            }
          },
          0,
          MoveProgressSampler.PERIOD_MILLIS,
          TimeUnit.MILLISECONDS);
      MapChangeMover.Result result = changes.apply(MapChange.addNode(node));
      sampler.shutdown();
      sampler.awaitTermination(10, TimeUnit.SECONDS);
      synchronized (out) {
        out.println(MoverChildProtocol.progressLine(changes.mover().progress()));
        for (MoveResult move : result.moves()) {
          for (GroupOutcome group : move.groups()) {
            out.println(MoverChildProtocol.groupLine(group));
          }
          out.println(MoverChildProtocol.moveLine(move));
        }
        out.println(MoverChildProtocol.DONE + result.complete());
        out.flush();
      }
      status = 0;
    } catch (RuntimeException e) {
      sampler.shutdownNow();
      synchronized (out) {
        out.println(MoverChildProtocol.FAILED + e.toString().replace('\n', ' '));
        out.flush();
      }
      e.printStackTrace();
      status = 1;
    }
    if (Boolean.getBoolean(THREAD_CPU_PROPERTY)) {
      TaskCpu.now().lines("mover-child thread CPU ").forEach(System.err::println);
    }
    System.exit(status);
  }

  /** {@code -Dmover.threadCpu=true}: at the end, the CPU time of this JVM's threads to stderr. */
  static final String THREAD_CPU_PROPERTY = "mover.threadCpu";

  static String joinCounts(Map<Integer, Long> counts) {
    return counts.entrySet().stream()
        .map(entry -> entry.getKey() + ":" + entry.getValue())
        .collect(Collectors.joining(","));
  }
}
