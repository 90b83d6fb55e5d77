package io.jumpgate.driver;

import io.lettuce.core.ScriptOutputType;
import java.util.concurrent.CompletionStage;

/**
 * EVAL and EVALSHA: every key of a script must map to one shard (else {@link CrossShardException}
 * before anything is sent); the script runs on that shard's leader.
 *
 * <p>A script must name at least one key ({@link IllegalArgumentException} otherwise): its keys are
 * what routes it, and a script without keys has no shard. To run a script that touches no key on a
 * chosen shard, pass a key of that shard anyway (Redis does not require a script to use its keys).
 * Keep every key a script touches under one hash tag ({@code {user42}.a}, {@code {user42}.b}), and
 * pass them all as keys: the driver can only check the keys it is given.
 *
 * <p>Scripts are never retried when their fate is unknown (a script may do anything). Scripts
 * loaded with SCRIPT LOAD live on each node: after a leader change, EVALSHA may fail with {@code
 * NOSCRIPT} ({@link io.lettuce.core.RedisNoScriptException}); fall back to EVAL then.
 *
 * <p>Answers have the type that {@link ScriptOutputType} names, as with Lettuce: BOOLEAN {@code
 * Boolean}, INTEGER {@code Long}, STATUS {@code String}, VALUE {@code V}, MULTI {@code
 * List<Object>}, OBJECT whatever the reply holds.
 *
 * <p>Thread-safe. A null key or value throws {@link NullPointerException} naming the parameter
 * before anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateScriptingAsyncCommands<K, V> {

  /**
   * EVAL of a script (sent as UTF-8) with keys and no arguments. Never retried when its fate is
   * unknown.
   */
  <T> CompletionStage<T> eval(String script, ScriptOutputType type, K... keys);

  /**
   * EVAL of a script (sent as UTF-8) with keys and arguments. Never retried when its fate is
   * unknown.
   */
  <T> CompletionStage<T> eval(String script, ScriptOutputType type, K[] keys, V... values);

  /** EVAL of a script given as bytes, with keys. Never retried when its fate is unknown. */
  <T> CompletionStage<T> eval(byte[] script, ScriptOutputType type, K... keys);

  /**
   * EVAL of a script given as bytes, with keys and arguments. Never retried when its fate is
   * unknown.
   */
  <T> CompletionStage<T> eval(byte[] script, ScriptOutputType type, K[] keys, V... values);

  /**
   * EVALSHA of a loaded script, by its SHA-1 digest, with keys. Never retried when its fate is
   * unknown.
   */
  <T> CompletionStage<T> evalsha(String digest, ScriptOutputType type, K... keys);

  /**
   * EVALSHA of a loaded script, by its SHA-1 digest, with keys and arguments. Never retried when
   * its fate is unknown.
   */
  <T> CompletionStage<T> evalsha(String digest, ScriptOutputType type, K[] keys, V... values);
}
