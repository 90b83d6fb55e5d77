package io.jumpgate.bench.timing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link PropagationProbe} in a child JVM started with this JVM's class path: its stdout is read
 * by a thread of ours into an {@link ArrivalLog}. Closing it asks the probe to quit, then kills it
 * if it has not within 5 s.
 *
 * <p>Thread-safe.
 */
final class ProbeProcess implements AutoCloseable {

  private final String name;
  private final Process process;
  private final Writer stdin;
  private final ArrivalLog log;
  private final CompletableFuture<Long> ready = new CompletableFuture<>();
  private final BlockingQueue<long[]> clockAnswers = new LinkedBlockingQueue<>();
  private final Path stderr;

  private ProbeProcess(String name, Process process, Path stderr) {
    this.name = name;
    this.process = process;
    this.stderr = stderr;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.log = new ArrivalLog(name, name);
    Thread reader = new Thread(this::read, name + "-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a probe JVM watching {@code cluster} at {@code endpoints}; its stderr goes to a file.
   */
  static ProbeProcess start(String name, String endpoints, String cluster, Path logDir)
      throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xms64m");
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(PropagationProbe.class.getName());
    command.add("--etcd");
    command.add(endpoints);
    command.add("--cluster");
    command.add(cluster);
    Path stderr = logDir.resolve(name + ".stderr.log");
    Process process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
            .start();
    return new ProbeProcess(name, process, stderr);
  }

  String name() {
    return name;
  }

  ArrivalLog log() {
    return log;
  }

  /** Waits for the probe's first snapshot; returns its revision. */
  long awaitReady(long timeoutSeconds) throws Exception {
    try {
      return ready.get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(
          name + " did not load the map within " + timeoutSeconds + " s; stderr: " + stderrTail());
    }
  }

  /**
   * One clock comparison: our nanoTime before asking, the probe's nanoTime when it answered, ours
   * when the answer came back.
   */
  long[] clockPing(long token) throws Exception {
    long before = System.nanoTime();
    send("clock " + token);
    long[] answer = clockAnswers.poll(10, TimeUnit.SECONDS);
    long after = System.nanoTime();
    if (answer == null || answer[0] != token) {
      throw new IllegalStateException(name + " did not answer clock " + token + " within 10 s");
    }
    return new long[] {before, answer[1], after};
  }

  private synchronized void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  private void read() {
    String prefix = PropagationProbe.PREFIX;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (!line.startsWith(prefix)) {
          continue;
        }
        String[] parts = line.substring(prefix.length()).split(" ");
        switch (parts[0]) {
          case "rev" -> log.arrived(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
          case "ready" -> ready.complete(Long.parseLong(parts[1]));
          case "clock" ->
              clockAnswers.add(new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])});
          default -> {
            // unknown line: ignored
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      ready.completeExceptionally(e);
    }
    ready.completeExceptionally(
        new IllegalStateException(name + " ended before it was ready; stderr: " + stderrTail()));
  }

  String stderrTail() {
    try {
      List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + stderr + ": " + e + ")";
    }
  }

  @Override
  public void close() throws Exception {
    try {
      send("quit");
      stdin.close();
    } catch (IOException alreadyGone) {
      // the probe ended already
    }
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
