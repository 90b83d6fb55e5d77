package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.NON_IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;
import static io.jumpgate.driver.internal.CommandFlags.SAME_STATE_WRITE;

import io.jumpgate.driver.JumpgateStringAsyncCommands;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.SetArgs;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The single-key string commands, as default methods over the connection's {@link CommandExecutor}.
 * Multi-key ones (MGET, MSET) live with the fan-out.
 *
 * <p>What a second run does ({@link CommandFlags}): SET without options, SETEX and SETRANGE change
 * nothing more and answer the same; SETNX, SET with a condition (NX, XX, IFEQ, ...), SET ... GET,
 * GETSET, GETDEL and GETEX leave the same data but answer differently (the first run changed what
 * the condition or the GET sees; an expiry at or before now deleted the key); INCR, DECR, APPEND
 * and the like change it again. SET with options is classed per call, from its options.
 */
interface StringCommands<K, V> extends JumpgateStringAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  default CompletionStage<V> get(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.GET, key, x.args(key), Outputs.value(), READ_ONLY);
  }

  @Override
  default CompletionStage<String> set(K key, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.SET, key, args, Outputs.status(), IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<String> set(K key, V value, SetArgs setArgs) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    int flags = setFlags(x, Objects.requireNonNull(setArgs, "setArgs"));
    setArgs.build(args);
    return x.keyed(CommandType.SET, key, args, Outputs.status(), flags);
  }

  @Override
  default CompletionStage<V> setGet(K key, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    args.add(CommandType.GET);
    return x.keyed(CommandType.SET, key, args, Outputs.value(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<V> setGet(K key, V value, SetArgs setArgs) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    // GET answers the value before this run: a second run answers the first one's value.
    int flags =
        setFlags(x, Objects.requireNonNull(setArgs, "setArgs")) == NON_IDEMPOTENT_WRITE
            ? NON_IDEMPOTENT_WRITE
            : SAME_STATE_WRITE;
    setArgs.build(args);
    args.add(CommandType.GET);
    return x.keyed(CommandType.SET, key, args, Outputs.value(), flags);
  }

  @Override
  default CompletionStage<Boolean> setnx(K key, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.SETNX, key, args, Outputs.bool(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<String> setex(K key, long seconds, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args =
        x.args(key).add(seconds).addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.SETEX, key, args, Outputs.status(), IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<V> getset(K key, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.GETSET, key, args, Outputs.value(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<V> getdel(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.GETDEL, key, x.args(key), Outputs.value(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<V> getex(K key, GetExArgs getExArgs) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    Objects.requireNonNull(getExArgs, "getExArgs").build(args);
    return x.keyed(CommandType.GETEX, key, args, Outputs.value(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Long> incr(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.INCR, key, x.args(key), Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Long> incrby(K key, long amount) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.INCRBY, key, x.args(key).add(amount), Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Double> incrbyfloat(K key, double amount) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.INCRBYFLOAT,
        key,
        x.args(key).add(amount),
        Outputs.decimal(),
        NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Long> decr(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.DECR, key, x.args(key), Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Long> decrby(K key, long amount) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.DECRBY, key, x.args(key).add(amount), Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Long> append(K key, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.APPEND, key, args, Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Long> strlen(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.STRLEN, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  @Override
  default CompletionStage<V> getrange(K key, long start, long end) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).add(start).add(end);
    return x.keyed(CommandType.GETRANGE, key, args, Outputs.value(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> setrange(K key, long offset, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args =
        x.args(key).add(offset).addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.SETRANGE, key, args, Outputs.integer(), IDEMPOTENT_WRITE);
  }

  /** The class of a SET with these options: see {@link CommandFlags#ofSetOptions}. */
  private static <K, V> int setFlags(CommandExecutor<K, V> x, SetArgs setArgs) {
    CommandArgs<K, V> options = x.args();
    setArgs.build(options);
    return CommandFlags.ofSetOptions(options);
  }
}
