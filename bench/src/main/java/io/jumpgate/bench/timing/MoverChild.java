package io.jumpgate.bench.timing;

import io.jumpgate.it.fixture.MoverProcessMain;
import io.jumpgate.it.fixture.MoverProtocol;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MapChangeMover;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveProgress;
import io.jumpgate.migration.MoveResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The fixture's {@link MoverProcessMain} (through {@link MoverChildMain}, which adds the thread CPU
 * report) in a JVM of its own (this JVM's {@code java} and class path, plus {@code jvmOptions}),
 * adding a node as an operator's {@code jumpgate add-node --apply} would, seen from {@link
 * MigrationRun}, optionally under a launcher that sets its CPU priority ({@link MoverPriority},
 * which execs the JVM: the process is the JVM): {@link #start} waits until it has planned, {@link
 * #apply} lets it go and waits for its result; phases and progress reach the callbacks on the
 * reader thread as they are printed. Its stderr goes to a file. {@link #close} kills it if it still
 * runs. Not thread-safe: one caller.
 */
final class MoverChild implements AutoCloseable {

  private final Process process;
  private final CompletableFuture<SortedSet<Integer>> ready = new CompletableFuture<>();
  private final CompletableFuture<MapChangeMover.Result> done = new CompletableFuture<>();
  private final List<String> lines = new ArrayList<>();

  private MoverChild(
      Process process, Consumer<MovePhase> onPhase, Consumer<MoveProgress> onProgress) {
    this.process = process;
    Thread reader =
        new Thread(() -> read(onPhase, onProgress), "mover-child-reader-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts the child and waits (bounded) until it has planned.
   *
   * @param launcher a program that runs the JVM's command line (such as {@code nice -n 19}), or
   *     none
   * @param arguments ENDPOINTS CLUSTER NODE_ID HOST PORT and the mover's flags
   * @throws IllegalStateException with the child's output when it fails or does not get ready
   */
  static MoverChild start(
      List<String> launcher,
      List<String> jvmOptions,
      List<String> arguments,
      Path stderr,
      Duration timeout,
      Consumer<MovePhase> onPhase,
      Consumer<MoveProgress> onProgress)
      throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(launcher);
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MoverChildMain.class.getName());
    command.addAll(commandLine(arguments));
    Files.createDirectories(stderr.toAbsolutePath().getParent());
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    MoverChild child = new MoverChild(process, onPhase, onProgress);
    try {
      child.ready.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      child.close();
      throw new IllegalStateException(
          "the mover JVM did not get ready within "
              + timeout
              + ": "
              + child.output()
              + " (stderr in "
              + stderr
              + ")",
          e);
    }
    return child;
  }

  /** ENDPOINTS CLUSTER NODE_ID HOST PORT and the mover's flags, as {@link MoverProcessMain}'s. */
  private static List<String> commandLine(List<String> arguments) {
    if (arguments.size() < 5) {
      throw new IllegalArgumentException(
          "MoverChild: needs ENDPOINTS CLUSTER NODE_ID HOST PORT [mover flags], got " + arguments);
    }
    List<String> line = new ArrayList<>();
    line.addAll(List.of("--endpoints", arguments.get(0), "--cluster", arguments.get(1)));
    line.addAll(
        List.of("--add-node", arguments.get(2) + ":" + arguments.get(3) + ":" + arguments.get(4)));
    line.add("--wait-for-go");
    line.addAll(List.of("--progress-ms", Long.toString(MoveProgressSampler.PERIOD_MILLIS)));
    line.addAll(arguments.subList(5, arguments.size()));
    return line;
  }

  long pid() {
    return process.pid();
  }

  /** The shards the planned add-node moves. */
  SortedSet<Integer> movingShards() {
    return ready.join();
  }

  /**
   * Lets the child apply the change and waits (bounded) for its result.
   *
   * @throws IllegalStateException with the child's output when it failed or did not finish
   */
  MapChangeMover.Result apply(Duration timeout) throws IOException, InterruptedException {
    OutputStream in = process.getOutputStream();
    in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
    in.flush();
    try {
      return done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "the mover JVM did not finish within " + timeout + ": " + output(), e);
    }
  }

  private void read(Consumer<MovePhase> onPhase, Consumer<MoveProgress> onProgress) {
    List<GroupOutcome> groups = new ArrayList<>();
    List<MoveResult> moves = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (!line.startsWith(MoverProtocol.PROGRESS)) {
          synchronized (lines) {
            lines.add(line);
          }
        }
        if (line.startsWith(MoverProtocol.READY)) {
          ready.complete(MoverProtocol.parseSet(line.substring(MoverProtocol.READY.length())));
        } else if (line.startsWith(MoverProtocol.PHASE)) {
          onPhase.accept(MovePhase.valueOf(line.substring(MoverProtocol.PHASE.length())));
        } else if (line.startsWith(MoverProtocol.PROGRESS)) {
          onProgress.accept(MoverProtocol.parseProgress(line));
        } else if (line.startsWith(MoverProtocol.GROUP)) {
          groups.add(MoverProtocol.parseGroup(line));
        } else if (line.startsWith(MoverProtocol.MOVE)) {
          moves.add(MoverProtocol.parseMove(line, groups));
          groups.clear();
        } else if (line.startsWith(MoverProtocol.DONE)) {
          boolean complete = Boolean.parseBoolean(line.substring(MoverProtocol.DONE.length()));
          done.complete(new MapChangeMover.Result(moves, null, complete));
        } else if (line.startsWith(MoverProtocol.FAILED)) {
          IllegalStateException failure = new IllegalStateException("mover JVM: " + line);
          ready.completeExceptionally(failure);
          done.completeExceptionally(failure);
        }
      }
    } catch (IOException | RuntimeException e) {
      ready.completeExceptionally(e);
      done.completeExceptionally(e);
      return;
    }
    IllegalStateException ended =
        new IllegalStateException("the mover JVM ended without a last line: " + output());
    ready.completeExceptionally(ended);
    done.completeExceptionally(ended);
  }

  private String output() {
    synchronized (lines) {
      return String.join(" | ", lines);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
