package io.jumpgate.driver.internal;

import io.jumpgate.driver.JumpgateScriptingAsyncCommands;

/** The scripting commands, as default methods over the connection's {@link CommandExecutor}. */
interface ScriptingCommands<K, V> extends JumpgateScriptingAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();
}
