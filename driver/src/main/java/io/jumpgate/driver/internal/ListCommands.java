package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateListAsyncCommands;

/** The list commands, as default methods over the connection's {@link CommandExecutor}. */
interface ListCommands<K, V> extends JumpgateListAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
