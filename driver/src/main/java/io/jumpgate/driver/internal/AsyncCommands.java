package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateAsyncCommands;

/**
 * The asynchronous commands of one connection (one codec): every command group's default methods
 * over one {@link CommandExecutor}. Immutable and thread-safe.
 */
public final class AsyncCommands<K, V>
    implements JumpgateAsyncCommands<K, V>,
        StringCommands<K, V>,
        FanOutCommands<K, V>,
        KeyCommands<K, V>,
        HashCommands<K, V>,
        ListCommands<K, V>,
        SetCommands<K, V>,
        SortedSetCommands<K, V>,
        ScriptingCommands<K, V>,
        ServerCommands<K, V>,
        DispatchCommands<K, V> {

  private final CommandExecutor<K, V> executor;

  public AsyncCommands(CommandExecutor<K, V> executor) {
    this.executor = executor;
  }

  @Override
  public CommandExecutor<K, V> executor() {
    return executor;
  }

  @Override
  public String toString() {
    return "JumpgateAsyncCommands[" + executor.codec().getClass().getSimpleName() + "]";
  }
}
