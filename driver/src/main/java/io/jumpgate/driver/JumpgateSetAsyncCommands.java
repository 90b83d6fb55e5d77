package io.jumpgate.driver;

/**
 * Set commands (SADD, SREM, SMEMBERS, SISMEMBER, SCARD), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateSetAsyncCommands<K, V> {}
