package io.jumpgate.driver;

/**
 * Every command of the driver, asynchronous: each method sends at once and returns a {@link
 * java.util.concurrent.CompletionStage} completed on a Netty event loop (never block in a callback;
 * hop to your own executor for slow work).
 *
 * <p>Thread-safe: share one instance across threads. Commands on one key keep their order when sent
 * from one thread. {@link JumpgateCommands} and {@link JumpgateReactiveCommands} mirror this
 * interface method for method.
 */
public interface JumpgateAsyncCommands<K, V>
    extends JumpgateStringAsyncCommands<K, V>,
        JumpgateKeyAsyncCommands<K, V>,
        JumpgateHashAsyncCommands<K, V>,
        JumpgateListAsyncCommands<K, V>,
        JumpgateSetAsyncCommands<K, V>,
        JumpgateSortedSetAsyncCommands<K, V>,
        JumpgateScriptingAsyncCommands<K, V>,
        JumpgateServerAsyncCommands<K, V>,
        JumpgateDispatchAsyncCommands<K, V> {}
