package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateSetAsyncCommands;

/** The set commands, as default methods over the connection's {@link CommandExecutor}. */
interface SetCommands<K, V> extends JumpgateSetAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
