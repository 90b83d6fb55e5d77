package io.jumpgate.driver;

/**
 * Any other command, routed by a key you name: the escape hatch for commands this driver has no
 * method for.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateDispatchAsyncCommands<K, V> {}
