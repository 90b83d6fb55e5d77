package io.jumpgate.cli;

import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The logging setup of the {@code jumpgate} process, so that stdout carries only the answer and
 * stderr only what matters: SLF4J (jetcd, netty, the topology sources) goes to slf4j-simple, which
 * {@code simplelogger.properties} in the runnable jar sets to WARN and above on stderr; {@code
 * java.util.logging} (grpc) is set here to WARNING and above, one line per record on stderr, in the
 * same form ({@code WARN ManagedChannelImpl - message}).
 *
 * <p>Changes JVM-wide state: called once by {@link JumpgateCli#main}, never by tests that run the
 * CLI in-process.
 */
final class CliLogging {

  private CliLogging() {}

  /** Sets {@code java.util.logging} to WARNING and above, one line per record on stderr. */
  static void configure() {
    LogManager.getLogManager().reset();
    Handler handler = new ConsoleHandler(); // System.err
    handler.setLevel(Level.WARNING);
    handler.setFormatter(new OneLine());
    Logger root = Logger.getLogger("");
    root.setLevel(Level.WARNING);
    root.addHandler(handler);
  }

  /** {@code WARN Logger - message}, like slf4j-simple; a throwable adds its one-line summary. */
  private static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord record) {
      String logger = record.getLoggerName() == null ? "" : record.getLoggerName();
      String shortName = logger.substring(logger.lastIndexOf('.') + 1);
      String level = record.getLevel().intValue() >= Level.SEVERE.intValue() ? "ERROR" : "WARN";
      String thrown = record.getThrown() == null ? "" : " (" + record.getThrown() + ")";
      return level
          + " "
          + shortName
          + " - "
          + formatMessage(record)
          + thrown
          + System.lineSeparator();
    }
  }
}
