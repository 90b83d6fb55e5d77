package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;

import io.jumpgate.driver.JumpgateStringAsyncCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * MGET and MSET, split over the nodes by {@link FanOut}; a failed part fails the call with {@link
 * io.jumpgate.driver.FanOutFailedException} once every part ended.
 */
interface FanOutCommands<K, V> extends JumpgateStringAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<List<KeyValue<K, V>>> mget(K... keys) {
    Objects.requireNonNull(keys, "keys");
    // the caller may reuse its array once the call returned; the parts encode and merge later
    return mgetOwned(keys.clone());
  }

  /** MGET of an array of keys that nothing but this call holds. */
  @SuppressWarnings("unchecked")
  private CompletionStage<List<KeyValue<K, V>>> mgetOwned(K[] keys) {
    CommandExecutor<K, V> x = executor();
    x.requireOpen();
    if (keys.length == 0) {
      return CompletableFuture.completedFuture(List.of());
    }
    KeyValue<K, V>[] answers = new KeyValue[keys.length];
    return FanOut.run(
        x,
        keys,
        CommandType.MGET,
        READ_ONLY,
        Outputs.valueList(),
        x.dispatcher().fanOutGrouping(),
        new FanOut.Plan<K, V, List<V>, List<KeyValue<K, V>>>() {
          @Override
          public CommandArgs<K, V> args(int[] keyIndices) {
            return new PartArguments<>(x.codec(), keys, null, keyIndices);
          }

          @Override
          public void accept(int[] keyIndices, List<V> values) {
            // A RESP proxy may answer a short, long or nil array: fail the part with a clear
            // reason instead of writing a wrong value at a key's index (FanOut fails the call).
            if (values == null || values.size() != keyIndices.length) {
              throw new IllegalStateException(
                  "MGET of "
                      + keyIndices.length
                      + " keys answered "
                      + (values == null ? "nil" : values.size() + " values"));
            }
            for (int position = 0; position < keyIndices.length; position++) {
              int index = keyIndices[position];
              answers[index] = KeyValue.fromNullable(keys[index], values.get(position));
            }
          }

          @Override
          public List<KeyValue<K, V>> result() {
            return Arrays.asList(answers);
          }
        });
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<List<KeyValue<K, V>>> mget(Iterable<K> keys) {
    Objects.requireNonNull(keys, "keys");
    List<K> list = new ArrayList<>();
    keys.forEach(list::add);
    return mgetOwned((K[]) list.toArray());
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<String> mset(Map<K, V> map) {
    Objects.requireNonNull(map, "map");
    CommandExecutor<K, V> x = executor();
    x.requireOpen();
    if (map.isEmpty()) {
      throw new IllegalArgumentException("mset needs at least one key");
    }
    K[] keys = (K[]) new Object[map.size()];
    V[] values = (V[]) new Object[map.size()];
    int position = 0;
    for (Map.Entry<K, V> entry : map.entrySet()) {
      keys[position] = entry.getKey();
      values[position] = Objects.requireNonNull(entry.getValue(), "value of key " + entry.getKey());
      position++;
    }
    return FanOut.run(
        x,
        keys,
        CommandType.MSET,
        IDEMPOTENT_WRITE,
        Outputs.status(),
        x.dispatcher().fanOutGrouping(),
        new FanOut.Plan<K, V, String, String>() {
          @Override
          public CommandArgs<K, V> args(int[] keyIndices) {
            return new PartArguments<>(x.codec(), keys, values, keyIndices);
          }

          @Override
          public void accept(int[] keyIndices, String answer) {}

          @Override
          public String result() {
            return "OK";
          }
        });
  }
}
