package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.NON_IDEMPOTENT_WRITE;

import io.jumpgate.driver.JumpgateDispatchAsyncCommands;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The dispatch command, as a default method over the connection's {@link CommandExecutor}.
 *
 * <p>The caller gives one output, but every try of a command needs a fresh one: each try reads into
 * its own {@link Outputs#replayingInto recording output}, and only the reply of the try that
 * succeeds reaches the caller's. So the command follows the usual retry rules for a write that is
 * not idempotent: sent again only when the server provably did not run it.
 */
interface DispatchCommands<K, V> extends JumpgateDispatchAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  default <T> CompletionStage<T> dispatch(
      K routingKey, ProtocolKeyword type, CommandOutput<K, V, T> output, CommandArgs<K, V> args) {
    Objects.requireNonNull(routingKey, "routingKey");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(args, "args");
    CommandExecutor<K, V> x = executor();
    return x.toShard(
        type, x.shardOf(routingKey), args, Outputs.replayingInto(output), NON_IDEMPOTENT_WRITE);
  }
}
