package io.jumpgate.migration.internal;

import io.jumpgate.migration.MigrationException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Bounded waits on futures, for the engine's phase thread (never a Netty thread): every failure
 * becomes a {@link MigrationException} that says what was waited for.
 */
public final class Await {

  private Await() {}

  public static <T> T result(CompletionStage<T> stage, Duration timeout, String what) {
    try {
      return stage.toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new MigrationException(what + ": no answer within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MigrationException(what + ": interrupted", e);
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof MigrationException) {
        throw (MigrationException) cause;
      }
      throw new MigrationException(what + ": " + cause.getMessage(), cause);
    }
  }
}
