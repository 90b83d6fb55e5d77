package io.jumpgate.driver;

/**
 * List commands (LPUSH, RPUSH, LPOP, RPOP, LRANGE, ...), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateListAsyncCommands<K, V> {}
