package io.jumpgate.it.cli;

import io.jumpgate.cli.JumpgateCli;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * Runs the {@code jumpgate} CLI in-process, with an empty environment, and captures what it prints:
 * each line of stdout and stderr with the {@link System#nanoTime()} at which it was completed, so a
 * test can measure when a line appeared.
 */
final class CliRun {

  /** One printed line and when its line feed was written. */
  record Line(String text, long nanoTime) {}

  /** A writer that splits what it gets into lines and stamps each one. Thread-safe. */
  static final class LineRecorder extends Writer {
    private final StringBuilder pending = new StringBuilder();
    private final List<Line> lines = new ArrayList<>();

    @Override
    public synchronized void write(char[] buffer, int offset, int length) {
      for (int index = offset; index < offset + length; index++) {
        char c = buffer[index];
        if (c == '\n') {
          lines.add(new Line(pending.toString(), System.nanoTime()));
          pending.setLength(0);
        } else if (c != '\r') {
          pending.append(c);
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    /** The complete lines so far. */
    synchronized List<Line> lines() {
      return List.copyOf(lines);
    }

    /** The complete lines so far, joined with line feeds (each followed by one). */
    synchronized String text() {
      StringBuilder text = new StringBuilder();
      for (Line line : lines) {
        text.append(line.text()).append('\n');
      }
      return text.append(pending).toString();
    }

    /** The first complete line that contains {@code part}, or null. */
    synchronized Line firstContaining(String part) {
      for (Line line : lines) {
        if (line.text().contains(part)) {
          return line;
        }
      }
      return null;
    }
  }

  /** The result of a run that ended. */
  record Result(int exitCode, String out, String err) {}

  final LineRecorder out = new LineRecorder();
  final LineRecorder err = new LineRecorder();
  private final CompletableFuture<Integer> exitCode;

  private CliRun(String... arguments) {
    CommandLine commandLine = JumpgateCli.newCommandLine(Map.of());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    exitCode = CompletableFuture.supplyAsync(() -> commandLine.execute(arguments));
  }

  /** Starts {@code jumpgate <arguments>} on another thread. */
  static CliRun start(String... arguments) {
    return new CliRun(arguments);
  }

  /** Runs {@code jumpgate <arguments>} to its end (at most 60 s). */
  static Result run(String... arguments) throws Exception {
    CliRun run = start(arguments);
    int code = run.awaitExit(60);
    return new Result(code, run.out.text(), run.err.text());
  }

  /** Waits for the exit code. */
  int awaitExit(long seconds) throws Exception {
    return exitCode.get(seconds, TimeUnit.SECONDS);
  }
}
