package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateDispatchAsyncCommands;

/** The dispatch commands, as default methods over the connection's {@link CommandExecutor}. */
interface DispatchCommands<K, V> extends JumpgateDispatchAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
