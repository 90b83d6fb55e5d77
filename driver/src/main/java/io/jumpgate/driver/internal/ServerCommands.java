package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateServerAsyncCommands;

/** The server commands, as default methods over the connection's {@link CommandExecutor}. */
interface ServerCommands<K, V> extends JumpgateServerAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
