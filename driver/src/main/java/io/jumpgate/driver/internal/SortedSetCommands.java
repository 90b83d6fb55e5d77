package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateSortedSetAsyncCommands;

/** The sorted-set commands, as default methods over the connection's {@link CommandExecutor}. */
interface SortedSetCommands<K, V> extends JumpgateSortedSetAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
