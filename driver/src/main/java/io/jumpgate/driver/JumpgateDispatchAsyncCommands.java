package io.jumpgate.driver;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.concurrent.CompletionStage;

/**
 * Any other command, routed by a key you name: the escape hatch for commands this driver has no
 * method for.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateDispatchAsyncCommands<K, V> {

  /**
   * Sends a command of your own to the leader of {@code routingKey}'s shard, like Lettuce's {@code
   * dispatch}: build the arguments with the connection's codec ({@code new CommandArgs<>(codec)
   * .addKey(key)...}); the answer is what {@code output.get()} returns once the reply was read.
   *
   * <p>The routing key only picks the shard: put the command's keys in {@code args} yourself, and
   * keep every one of them on the routing key's shard (one hash tag). The command always goes to
   * the leader, whatever the read policy.
   *
   * <p>Retries: the driver does not know what the command does, so it treats it as a write that is
   * not idempotent: it is sent again only when the server provably did not run it (MOVED, READONLY,
   * a connection refused, ... after a topology change), never when its fate is unknown (a timeout,
   * a connection lost after writing). Each try reads its reply into a private buffer, and only the
   * reply of the try that succeeds is handed to {@code output}, once: a failed try never leaves
   * partial data or an error in it. A server error (ERR, WRONGTYPE, ...) completes the stage
   * exceptionally and leaves {@code output} untouched. An exception thrown by {@code output} while
   * it takes the reply fails the stage with a {@link
   * io.lettuce.core.RedisCommandExecutionException} naming it.
   *
   * <p>Give a fresh output per call: the output must not be shared between calls (nor between
   * subscriptions of a reactive call). As with Lettuce, a reply that arrives after the stage failed
   * on its timeout may still be handed to the output; read the output only after the stage
   * completed normally.
   *
   * @param routingKey the key whose shard's leader runs the command
   * @param type the command, e.g. {@code CommandType.HSETNX} or your own {@link ProtocolKeyword}
   * @param output receives the reply
   * @param args the command's arguments, after its name
   */
  <T> CompletionStage<T> dispatch(
      K routingKey, ProtocolKeyword type, CommandOutput<K, V, T> output, CommandArgs<K, V> args);
}
