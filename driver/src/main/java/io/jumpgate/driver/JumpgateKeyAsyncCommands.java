package io.jumpgate.driver;

/**
 * Key commands (DEL, EXISTS, EXPIRE, TTL, TYPE, ...): single-key ones go to the key's shard;
 * multi-key DEL, UNLINK, EXISTS and TOUCH are split over the nodes and their counts summed.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateKeyAsyncCommands<K, V> {}
