package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;
import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.ReturnType;

/**
 * Lua scripts ({@code RedisScript} through {@code RedisTemplate.execute(script, keys, args)}): a
 * script runs on the leader of its keys' shard, EVAL or EVALSHA through the driver (never sent
 * again when its fate is unknown). Its keys must all be on one shard, else {@link
 * InvalidDataAccessApiUsageException} naming the command and the shards, nothing sent; a script
 * without keys has no shard and is refused. EVALSHA of a script the leader does not know fails with
 * NOSCRIPT in the exception's cause, on which Spring's script executor sends EVAL. SCRIPT LOAD,
 * EXISTS, FLUSH and KILL (no key) are refused.
 *
 * <p>Answers as Spring's Lettuce connection gives them: {@code Long}, {@code Boolean}, {@code
 * byte[]} (a status reply as its UTF-8 bytes) or a {@code List}. Thread-safe.
 */
final class RoutedScriptingCommands extends UnsupportedScriptingCommands {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final OneShardRule oneShard;

  RoutedScriptingCommands(JumpgateCommands<byte[], byte[]> redis, OneShardRule oneShard) {
    this.redis = redis;
    this.oneShard = oneShard;
  }

  @Override
  public <T> T eval(byte[] script, ReturnType returnType, int numKeys, byte[]... keysAndArgs) {
    byte[][] keys = keys("EVAL", numKeys, keysAndArgs);
    byte[][] arguments = arguments(numKeys, keysAndArgs);
    return translated(
        () -> answer(returnType, redis.eval(script, outputType(returnType), keys, arguments)));
  }

  @Override
  public <T> T evalSha(
      String scriptSha, ReturnType returnType, int numKeys, byte[]... keysAndArgs) {
    byte[][] keys = keys("EVALSHA", numKeys, keysAndArgs);
    byte[][] arguments = arguments(numKeys, keysAndArgs);
    return translated(
        () ->
            answer(returnType, redis.evalsha(scriptSha, outputType(returnType), keys, arguments)));
  }

  @Override
  public <T> T evalSha(
      byte[] scriptSha, ReturnType returnType, int numKeys, byte[]... keysAndArgs) {
    return evalSha(
        new String(scriptSha, StandardCharsets.US_ASCII), returnType, numKeys, keysAndArgs);
  }

  private byte[][] keys(String command, int numKeys, byte[][] keysAndArgs) {
    if (numKeys < 0 || numKeys > keysAndArgs.length) {
      throw new InvalidDataAccessApiUsageException(
          command + ": " + numKeys + " keys asked for, " + keysAndArgs.length + " given");
    }
    if (numKeys == 0) {
      throw Refusals.noKey(
          command,
          "a script without keys has no shard; pass the keys it touches (one hash tag), or a key of"
              + " the shard it should run on");
    }
    byte[][] keys = Arrays.copyOfRange(keysAndArgs, 0, numKeys);
    oneShard.requireOneShard(command, keys);
    return keys;
  }

  private static byte[][] arguments(int numKeys, byte[][] keysAndArgs) {
    return Arrays.copyOfRange(keysAndArgs, numKeys, keysAndArgs.length);
  }

  private static ScriptOutputType outputType(ReturnType returnType) {
    return switch (returnType) {
      case BOOLEAN -> ScriptOutputType.BOOLEAN;
      case INTEGER -> ScriptOutputType.INTEGER;
      case MULTI -> ScriptOutputType.MULTI;
      case STATUS -> ScriptOutputType.STATUS;
      case VALUE -> ScriptOutputType.VALUE;
    };
  }

  @SuppressWarnings("unchecked")
  private static <T> T answer(ReturnType returnType, Object answer) {
    if (returnType == ReturnType.STATUS && answer instanceof String status) {
      return (T) status.getBytes(StandardCharsets.UTF_8);
    }
    if (returnType == ReturnType.MULTI && answer instanceof List<?> list) {
      for (Object element : list) {
        if (element instanceof RuntimeException failure) {
          throw translate(failure);
        }
      }
    }
    return (T) answer;
  }
}
