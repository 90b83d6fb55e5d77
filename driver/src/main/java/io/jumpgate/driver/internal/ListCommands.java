package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.NON_IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;

import io.jumpgate.driver.JumpgateListAsyncCommands;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The list commands, as default methods over the connection's {@link CommandExecutor}. Pushes and
 * pops change the list each time they run, so none of them is retried when its fate is unknown.
 */
interface ListCommands<K, V> extends JumpgateListAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> lpush(K key, V... values) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValues(nonEmpty(values, "values"));
    return x.keyed(CommandType.LPUSH, key, args, Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> rpush(K key, V... values) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValues(nonEmpty(values, "values"));
    return x.keyed(CommandType.RPUSH, key, args, Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<V> lpop(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.LPOP, key, x.args(key), Outputs.value(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<List<V>> lpop(K key, long count) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.LPOP, key, x.args(key).add(count), Outputs.valueList(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<V> rpop(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.RPOP, key, x.args(key), Outputs.value(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<List<V>> rpop(K key, long count) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.RPOP, key, x.args(key).add(count), Outputs.valueList(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<List<V>> lrange(K key, long start, long stop) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).add(start).add(stop);
    return x.keyed(CommandType.LRANGE, key, args, Outputs.valueList(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> llen(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.LLEN, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  @Override
  default CompletionStage<V> lindex(K key, long index) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.LINDEX, key, x.args(key).add(index), Outputs.value(), READ_ONLY);
  }

  /** The items, checked: not null, not empty, no null element ("values[2]"). */
  private static <T> T[] nonEmpty(T[] items, String name) {
    Objects.requireNonNull(items, name);
    if (items.length == 0) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    for (int index = 0; index < items.length; index++) {
      if (items[index] == null) {
        throw new NullPointerException(name + "[" + index + "]");
      }
    }
    return items;
  }
}
