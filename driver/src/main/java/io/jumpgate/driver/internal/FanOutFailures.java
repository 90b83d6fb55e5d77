package io.jumpgate.driver.internal;

import io.jumpgate.driver.Attempt;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.FanOutFailedException;
import io.jumpgate.driver.FanOutPart;
import io.jumpgate.driver.Outcome;
import io.jumpgate.spi.JumpgateException;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The words and types of a failed {@link FanOut}: what each part's failure says about whether it
 * ran, and the exceptions the caller sees. Only on the failure path. Stateless.
 */
final class FanOutFailures {

  /** Key indices shown in a message before the rest is summed up. */
  private static final int KEYS_SHOWN = 10;

  private FanOutFailures() {}

  /**
   * What a part's failure says about whether it ran.
   *
   * @param cause the part's failure, unwrapped
   * @param mayHaveRun whether a try of the part (or of its keys before a regroup) may have run
   */
  static Outcome outcomeOf(Throwable cause, boolean mayHaveRun) {
    if (cause instanceof RedisCommandExecutionException) {
      return Outcome.APPLIED; // the server's own answer (WRONGTYPE, ERR ...): it ran
    }
    if (cause instanceof CommandFailedException failure) {
      return mayHaveRun ? Outcome.UNKNOWN : failure.outcome();
    }
    // refused before anything was written: no route, the client closed, arguments not encodable
    return mayHaveRun ? Outcome.UNKNOWN : Outcome.NOT_RUN;
  }

  /** A part's answer came but could not be merged (a short or malformed reply from a proxy). */
  static JumpgateException mergeFailure(
      String command, NodeHandle node, int[] keyIndices, RuntimeException error) {
    return new JumpgateException(
        command
            + ": the answer of "
            + describe(node)
            + " for keys "
            + describe(keyIndices)
            + " could not be merged ("
            + error.getClass().getSimpleName()
            + (error.getMessage() == null ? "" : ": " + error.getMessage())
            + ")",
        error);
  }

  /** A part's keys moved to several nodes after the deadline: they are not sent again. */
  static CommandTimeoutException regroupTooLate(
      String command,
      NodeHandle node,
      int[] keyIndices,
      long timeoutNanos,
      List<Attempt> attempts,
      boolean mayHaveRun) {
    return new CommandTimeoutException(
        command
            + ": the keys "
            + describe(keyIndices)
            + " sent to "
            + describe(node)
            + " moved to several nodes and the deadline ("
            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
            + " ms) passed before they could be sent again",
        command,
        attempts,
        mayHaveRun ? Outcome.UNKNOWN : Outcome.NOT_RUN,
        null);
  }

  /** The public view of one part. */
  static FanOutPart part(NodeHandle node, int[] keyIndices, Outcome outcome, Throwable error) {
    Integer[] sorted = new Integer[keyIndices.length];
    for (int index = 0; index < keyIndices.length; index++) {
      sorted[index] = keyIndices[index];
    }
    Arrays.sort(sorted);
    if (outcome == null) {
      // cannot happen: every part counted as ended has its outcome; say so rather than hide it
      outcome = Outcome.UNKNOWN;
      error = new IllegalStateException("the part ended without an outcome");
    }
    return new FanOutPart(
        node == null ? null : node.node().id(),
        node == null ? null : node.node().address(),
        Arrays.asList(sorted),
        outcome,
        error);
  }

  /**
   * The call's failure: the failed parts first, then the answered ones, each with its keys, node
   * and outcome.
   *
   * @param parts every part in key order, at least one failed
   */
  static FanOutFailedException failure(String command, List<FanOutPart> parts) {
    StringBuilder failed = new StringBuilder();
    StringBuilder answered = new StringBuilder();
    int failures = 0;
    for (FanOutPart part : parts) {
      if (part.failed()) {
        failed.append(failures++ == 0 ? "" : "; ").append(part);
      } else {
        answered.append(answered.length() == 0 ? "" : "; ").append(part);
      }
    }
    String message =
        command
            + " failed on "
            + failures
            + " of "
            + parts.size()
            + " part"
            + (parts.size() == 1 ? "" : "s")
            + ": "
            + failed
            + (answered.length() == 0 ? "" : "; answered: " + answered);
    return new FanOutFailedException(message, command, parts);
  }

  private static String describe(NodeHandle node) {
    return node == null ? "no node" : node.node().id() + " (" + node.node().address() + ")";
  }

  /** Key indices, ascending, the first {@link #KEYS_SHOWN} of them. */
  private static String describe(int[] keyIndices) {
    int[] sorted = keyIndices.clone();
    Arrays.sort(sorted);
    int shown = Math.min(sorted.length, KEYS_SHOWN);
    StringBuilder text = new StringBuilder("[");
    for (int index = 0; index < shown; index++) {
      text.append(index == 0 ? "" : ", ").append(sorted[index]);
    }
    if (shown < sorted.length) {
      text.append(", ... ").append(sorted.length).append(" keys");
    }
    return text.append(']').toString();
  }
}
