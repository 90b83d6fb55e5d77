package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.NON_IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;
import static io.jumpgate.driver.internal.CommandFlags.SAME_STATE_WRITE;

import io.jumpgate.driver.JumpgateHashAsyncCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/** The hash commands, as default methods over the connection's {@link CommandExecutor}. */
interface HashCommands<K, V> extends JumpgateHashAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  default CompletionStage<Boolean> hset(K key, K field, V value) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args =
        x.args(key)
            .addKey(Objects.requireNonNull(field, "field"))
            .addValue(Objects.requireNonNull(value, "value"));
    return x.keyed(CommandType.HSET, key, args, Outputs.bool(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Long> hset(K key, Map<K, V> map) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    Objects.requireNonNull(map, "map");
    if (map.isEmpty()) {
      throw new IllegalArgumentException("hset needs at least one field");
    }
    for (Map.Entry<K, V> entry : map.entrySet()) {
      K field = Objects.requireNonNull(entry.getKey(), "map: a field is null");
      args.addKey(field)
          .addValue(Objects.requireNonNull(entry.getValue(), "map: the value of field " + field));
    }
    return x.keyed(CommandType.HSET, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<V> hget(K key, K field) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addKey(Objects.requireNonNull(field, "field"));
    return x.keyed(CommandType.HGET, key, args, Outputs.value(), READ_ONLY);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<List<KeyValue<K, V>>> hmget(K key, K... fields) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key);
    // The output names each answer after its field: keep the fields as they are now.
    List<K> asked = List.copyOf(Arrays.asList(nonEmpty(fields, "fields")));
    for (K field : asked) {
      args.addKey(field);
    }
    return x.keyed(CommandType.HMGET, key, args, Outputs.keyValueList(asked), READ_ONLY);
  }

  @Override
  default CompletionStage<Map<K, V>> hgetall(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.HGETALL, key, x.args(key), Outputs.map(), READ_ONLY);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> hdel(K key, K... fields) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addKeys(nonEmpty(fields, "fields"));
    return x.keyed(CommandType.HDEL, key, args, Outputs.integer(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Boolean> hexists(K key, K field) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addKey(Objects.requireNonNull(field, "field"));
    return x.keyed(CommandType.HEXISTS, key, args, Outputs.bool(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> hincrby(K key, K field, long amount) {
    CommandExecutor<K, V> x = executor();
    CommandArgs<K, V> args = x.args(key).addKey(Objects.requireNonNull(field, "field")).add(amount);
    return x.keyed(CommandType.HINCRBY, key, args, Outputs.integer(), NON_IDEMPOTENT_WRITE);
  }

  @Override
  default CompletionStage<Long> hlen(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.HLEN, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  @Override
  default CompletionStage<List<K>> hkeys(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.HKEYS, key, x.args(key), Outputs.keyList(), READ_ONLY);
  }

  @Override
  default CompletionStage<List<V>> hvals(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.HVALS, key, x.args(key), Outputs.valueList(), READ_ONLY);
  }

  /** The items, checked: not null, not empty, no null element ("fields[2]"). */
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
