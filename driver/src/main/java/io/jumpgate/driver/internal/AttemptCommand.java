package io.jumpgate.driver.internal;

import io.lettuce.core.protocol.Command;

/**
 * A retry of a {@link RoutedCommand}: its own Lettuce command with a fresh output, whose answer or
 * failure goes to the routed command. Allocated only when a command is tried again.
 */
final class AttemptCommand<K, V, T> extends CommandTry<K, V, T> {

  private final RoutedCommand<K, V, T> parent;
  private final int number;

  AttemptCommand(RoutedCommand<K, V, T> parent, int number, Command<K, V, T> command) {
    super(command);
    this.parent = parent;
    this.number = number;
  }

  @Override
  void onAnswer(T value) {
    finishFuture(value);
    parent.succeed(value);
  }

  @Override
  void onFailure(Throwable error) {
    failFuture(error);
    parent.dispatcher().onFailure(parent, number, error);
  }

  @Override
  public long deadlineNanos() {
    return parent.deadlineNanos();
  }
}
