package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.NON_IDEMPOTENT_WRITE;

import io.jumpgate.driver.CrossShardException;
import io.jumpgate.driver.JumpgateScriptingAsyncCommands;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * EVAL and EVALSHA, as default methods over the connection's {@link CommandExecutor}: the keys must
 * share one shard (checked before anything is sent), and the script goes to that shard's leader as
 * a write that is never sent again when its fate is unknown.
 */
interface ScriptingCommands<K, V> extends JumpgateScriptingAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  @SuppressWarnings("unchecked")
  default <T> CompletionStage<T> eval(String script, ScriptOutputType type, K... keys) {
    return run(CommandType.EVAL, utf8(script), type, keys, null);
  }

  @Override
  @SuppressWarnings("unchecked")
  default <T> CompletionStage<T> eval(String script, ScriptOutputType type, K[] keys, V... values) {
    return run(CommandType.EVAL, utf8(script), type, keys, values);
  }

  @Override
  @SuppressWarnings("unchecked")
  default <T> CompletionStage<T> eval(byte[] script, ScriptOutputType type, K... keys) {
    return run(CommandType.EVAL, Objects.requireNonNull(script, "script"), type, keys, null);
  }

  @Override
  @SuppressWarnings("unchecked")
  default <T> CompletionStage<T> eval(byte[] script, ScriptOutputType type, K[] keys, V... values) {
    return run(CommandType.EVAL, Objects.requireNonNull(script, "script"), type, keys, values);
  }

  @Override
  @SuppressWarnings("unchecked")
  default <T> CompletionStage<T> evalsha(String digest, ScriptOutputType type, K... keys) {
    return run(CommandType.EVALSHA, digest(digest), type, keys, null);
  }

  @Override
  @SuppressWarnings("unchecked")
  default <T> CompletionStage<T> evalsha(
      String digest, ScriptOutputType type, K[] keys, V... values) {
    return run(CommandType.EVALSHA, digest(digest), type, keys, values);
  }

  /**
   * Checks every argument, finds the one shard of the keys and sends the script there.
   *
   * @param script the script's text or its digest, as sent
   * @param values the arguments, or null for none
   */
  private <T> CompletionStage<T> run(
      CommandType command, byte[] script, ScriptOutputType type, K[] keys, V[] values) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(keys, "keys");
    if (keys.length == 0) {
      throw new IllegalArgumentException(
          command
              + " needs at least one key: the keys route the script to its shard (pass a key of"
              + " the shard to run it on, even if the script does not use it)");
    }
    for (int index = 0; index < keys.length; index++) {
      if (keys[index] == null) {
        throw new NullPointerException("keys[" + index + "]");
      }
    }
    if (values != null) {
      for (int index = 0; index < values.length; index++) {
        if (values[index] == null) {
          throw new NullPointerException("values[" + index + "]");
        }
      }
    }
    CommandExecutor<K, V> x = executor();
    int shard = x.shardOf(keys[0]);
    for (int index = 1; index < keys.length; index++) {
      int other = x.shardOf(keys[index]);
      if (other != shard) {
        throw new CrossShardException(command.toString(), shard, other, index);
      }
    }
    CommandArgs<K, V> args = x.args().add(script).add(keys.length).addKeys(keys);
    if (values != null) {
      args.addValues(values);
    }
    return x.toShard(command, shard, args, Outputs.script(type), NON_IDEMPOTENT_WRITE);
  }

  private static byte[] utf8(String script) {
    return Objects.requireNonNull(script, "script").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] digest(String digest) {
    return Objects.requireNonNull(digest, "digest").getBytes(StandardCharsets.US_ASCII);
  }
}
