package io.jumpgate.driver;

import io.jumpgate.spi.JumpgateException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A command sent to several nodes at once (PING, DBSIZE, FLUSHDB, KEYS, INFO, ...) failed on at
 * least one of them. Raised once every node ended, so it tells the whole picture: {@link
 * #failures()} names each failed node with the driver's own exception for it ({@link
 * NodeUnavailableException}, {@link CommandTimeoutException}, a server error as Lettuce's {@code
 * RedisCommandExecutionException}, ...), and {@link #answers()} holds the answers of the nodes that
 * did answer. {@link #getCause()} is the failure of the first failed node in node id order.
 *
 * <p>Nothing is undone on the nodes that answered: after a failed FLUSHDB, the leaders in {@link
 * #answers()} were flushed.
 *
 * <p>Immutable once thrown.
 */
public class BroadcastFailedException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  private final String command;
  private final transient Map<String, Throwable> failures;
  private final transient Map<String, Object> answers;

  /**
   * @param message what went wrong, naming the failed nodes
   * @param command the command's name, e.g. {@code FLUSHDB}
   * @param failures node id -> its failure, at least one; copied, order kept
   * @param answers node id -> its answer, for the nodes that answered; copied, order kept
   */
  public BroadcastFailedException(
      String message,
      String command,
      Map<String, ? extends Throwable> failures,
      Map<String, ?> answers) {
    super(message, failures.isEmpty() ? null : failures.values().iterator().next());
    if (failures.isEmpty()) {
      throw new IllegalArgumentException("a broadcast failure needs at least one failed node");
    }
    this.command = Objects.requireNonNull(command, "command");
    this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    this.answers = Collections.unmodifiableMap(new LinkedHashMap<>(answers));
  }

  /** The command's name. */
  public String command() {
    return command;
  }

  /** Node id -> why the command failed there, in node id order; never empty. */
  public Map<String, Throwable> failures() {
    return failures;
  }

  /** Node id -> the node's answer, for every node that answered, in node id order. */
  public Map<String, Object> answers() {
    return answers;
  }
}
