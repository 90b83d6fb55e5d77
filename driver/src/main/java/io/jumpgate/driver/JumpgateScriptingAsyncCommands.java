package io.jumpgate.driver;

/**
 * EVAL and EVALSHA: every key of a script must map to one shard (else {@link CrossShardException}
 * before anything is sent); the script runs on that shard's leader.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateScriptingAsyncCommands<K, V> {}
