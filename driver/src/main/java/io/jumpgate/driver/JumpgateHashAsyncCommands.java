package io.jumpgate.driver;

/**
 * Hash commands (HSET, HGET, HMGET, HGETALL, ...), each sent to its key's shard.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateHashAsyncCommands<K, V> {}
