package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateKeyAsyncCommands;

/** The key commands, as default methods over the connection's {@link CommandExecutor}. */
interface KeyCommands<K, V> extends JumpgateKeyAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
