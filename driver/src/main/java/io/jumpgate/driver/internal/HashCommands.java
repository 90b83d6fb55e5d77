package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateHashAsyncCommands;

/** The hash commands, as default methods over the connection's {@link CommandExecutor}. */
interface HashCommands<K, V> extends JumpgateHashAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
