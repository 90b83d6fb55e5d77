package io.jumpgate.testkit;

import java.util.List;

/**
 * A {@link LocalNode#redisCli(String...)} call gave no answer: {@code redis-cli} is not on the
 * {@code PATH}, could not be started, did not end within its bound, or exited with an error (it
 * could not connect or authenticate, or Redis answered the command with an error). The message
 * names the node, the command and what redis-cli printed.
 *
 * <p>Unchecked. Immutable and thread-safe.
 */
public final class RedisCliException extends LocalClusterException {

  private static final long serialVersionUID = 1L;

  private final List<String> command;
  private final String output;

  /**
   * @param message what went wrong, naming the node and the command
   * @param command the arguments given to redis-cli after its connection options
   * @param output what redis-cli printed (stdout and stderr), empty when it did not run
   * @param cause the exception that caused it, or null
   */
  public RedisCliException(String message, List<String> command, String output, Throwable cause) {
    super(message, cause);
    this.command = List.copyOf(command);
    this.output = output;
  }

  /** The command that failed: the arguments given to redis-cli after its connection options. */
  public List<String> command() {
    return command;
  }

  /** What redis-cli printed (stdout and stderr together), empty when it did not run. */
  public String output() {
    return output;
  }
}
