package io.jumpgate.driver;

/**
 * A view of a {@link JumpgateClient} for one key and value type (codec), with its synchronous,
 * asynchronous and reactive command sets.
 *
 * <p>Thread-safe and cheap: it holds no network connection of its own (the client keeps one
 * multiplexed connection per node, shared by every view). Closing it is optional; closing the
 * client ends every view.
 */
public interface JumpgateConnection<K, V> extends AutoCloseable {

  /** Blocking commands: each call waits for its answer, at most the command timeout. */
  JumpgateCommands<K, V> sync();

  /** Non-blocking commands returning {@link java.util.concurrent.CompletionStage}s. */
  JumpgateAsyncCommands<K, V> async();

  /** Reactive commands (Project Reactor): each call is sent when subscribed. */
  JumpgateReactiveCommands<K, V> reactive();

  /** Nothing to release: views share the client's connections. Idempotent. */
  @Override
  void close();
}
