package io.jumpgate.spring.data.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisPipelineException;

/**
 * The answers of one {@code executePipelined}, in the order of the calls: each command is sent when
 * it is called (the driver's asynchronous view, so commands to many shards are in flight at once)
 * and its answer, or its error, takes the next slot. {@link #close()} waits for every slot, at most
 * the given wait in all, and returns the answers in order; when a command failed, its slot holds
 * the Spring exception and a {@link RedisPipelineException} carrying every slot is thrown, as
 * Spring's own connections do.
 *
 * <p>Not thread-safe: one pipeline belongs to one connection, which Spring hands to one thread.
 */
final class Pipeline {

  private final Duration wait;
  private final List<CompletableFuture<?>> slots = new ArrayList<>();

  /**
   * @param wait how long {@link #close()} waits for all answers at most: longer than any command's
   *     own deadline, which ends each one first
   */
  Pipeline(Duration wait) {
    this.wait = wait;
  }

  /** A command in flight: its answer, already converted to Spring's type, takes the next slot. */
  void add(CompletionStage<?> answer) {
    slots.add(answer.toCompletableFuture());
  }

  /** A command answered at once (one the driver sends blocking): its answer takes the next slot. */
  void addAnswer(Object answer) {
    slots.add(CompletableFuture.completedFuture(answer));
  }

  /** A command that failed at once: its error takes the next slot. */
  void addFailure(DataAccessException failure) {
    slots.add(CompletableFuture.failedFuture(failure));
  }

  /** How many answers are expected. */
  int size() {
    return slots.size();
  }

  /**
   * Waits for every answer and returns them in the order of the calls.
   *
   * @throws RedisPipelineException when a command failed or did not answer in time; its results
   *     hold the answers, and the Spring exception of each failed command in its slot
   */
  List<Object> close() {
    long deadline = System.nanoTime() + wait.toNanos();
    List<Object> answers = new ArrayList<>(slots.size());
    DataAccessException firstFailure = null;
    for (CompletableFuture<?> slot : slots) {
      Object answer;
      try {
        answer = slot.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException | CompletionException failed) {
        answer = translated(failed.getCause());
      } catch (TimeoutException late) {
        answer =
            new QueryTimeoutException(
                "a pipelined command did not answer within " + wait + " (nothing more is waited)");
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        answer = new RedisSystemException("interrupted while waiting for pipelined answers", null);
      }
      if (answer instanceof DataAccessException failure && firstFailure == null) {
        firstFailure = failure;
      }
      answers.add(answer);
    }
    slots.clear();
    if (firstFailure != null) {
      throw new RedisPipelineException(firstFailure, answers);
    }
    return answers;
  }

  private static DataAccessException translated(Throwable cause) {
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof RuntimeException runtime) {
      return ExceptionTranslation.translate(runtime);
    }
    return new RedisSystemException(String.valueOf(cause), cause);
  }
}
