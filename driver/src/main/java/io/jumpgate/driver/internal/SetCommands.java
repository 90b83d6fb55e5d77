package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;
import static io.jumpgate.driver.internal.CommandFlags.SAME_STATE_WRITE;

import io.jumpgate.driver.JumpgateSetAsyncCommands;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/** The set commands, as default methods over the connection's {@link CommandExecutor}. */
interface SetCommands<K, V> extends JumpgateSetAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> sadd(K key, V... members) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValues(nonEmpty(members, "members"));
    return x.keyed(CommandType.SADD, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> srem(K key, V... members) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValues(nonEmpty(members, "members"));
    return x.keyed(CommandType.SREM, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Set<V>> smembers(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.SMEMBERS, key, x.args(key), Outputs.valueSet(), READ_ONLY);
  }

  @Override
  default CompletionStage<Boolean> sismember(K key, V member) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addValue(Objects.requireNonNull(member, "member"));
    return x.keyed(CommandType.SISMEMBER, key, args, Outputs.bool(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> scard(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.SCARD, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  /** The items, checked: not null, not empty, no null element ("members[2]"). */
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
