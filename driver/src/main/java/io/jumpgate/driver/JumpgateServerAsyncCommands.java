package io.jumpgate.driver;

/**
 * Commands for the whole cluster, sent to every node or every leader and merged: PING, DBSIZE,
 * FLUSHDB, FLUSHALL, KEYS, INFO and a cluster-wide SCAN.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateServerAsyncCommands<K, V> {}
