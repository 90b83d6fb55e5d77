package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;
import static io.jumpgate.driver.internal.CommandFlags.SAME_STATE_WRITE;

import io.jumpgate.driver.JumpgateKeyAsyncCommands;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The key commands, as default methods over the connection's {@link CommandExecutor}. DEL, UNLINK,
 * EXISTS and TOUCH of several keys go through {@link FanOut}; of one key, straight to its shard.
 *
 * <p>DEL and UNLINK count the keys removed, PERSIST whether a timeout was removed: 0 the second
 * time. EXPIRE, PEXPIRE and EXPIREAT answer the same twice unless the time is at or before now (the
 * first run deletes the key) or passes between the runs: all are {@link
 * CommandFlags#SAME_STATE_WRITE}. TOUCH answers the same count twice.
 */
interface KeyCommands<K, V> extends JumpgateKeyAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> del(K... keys) {
    return summed(CommandType.DEL, SAME_STATE_WRITE, keys);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> unlink(K... keys) {
    return summed(CommandType.UNLINK, SAME_STATE_WRITE, keys);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> exists(K... keys) {
    return summed(CommandType.EXISTS, READ_ONLY, keys);
  }

  @Override
  @SuppressWarnings("unchecked")
  default CompletionStage<Long> touch(K... keys) {
    // Routed as a write: only the leader's access times matter (replicas evict as told).
    return summed(CommandType.TOUCH, IDEMPOTENT_WRITE, keys);
  }

  @Override
  default CompletionStage<Boolean> expire(K key, long seconds) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.EXPIRE, key, x.args(key).add(seconds), Outputs.bool(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Boolean> pexpire(K key, long milliseconds) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.PEXPIRE, key, x.args(key).add(milliseconds), Outputs.bool(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Boolean> expireat(K key, long timestamp) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(
        CommandType.EXPIREAT, key, x.args(key).add(timestamp), Outputs.bool(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<Long> ttl(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.TTL, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  @Override
  default CompletionStage<Long> pttl(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.PTTL, key, x.args(key), Outputs.integer(), READ_ONLY);
  }

  @Override
  default CompletionStage<Boolean> persist(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.PERSIST, key, x.args(key), Outputs.bool(), SAME_STATE_WRITE);
  }

  @Override
  default CompletionStage<String> type(K key) {
    CommandExecutor<K, V> x = executor();
    return x.keyed(CommandType.TYPE, key, x.args(key), Outputs.status(), READ_ONLY);
  }

  /**
   * A command over keys that answers a count: one key goes straight to its shard; several are split
   * by {@link FanOut} and the counts of the parts added up.
   */
  private CompletionStage<Long> summed(CommandType type, int flags, K[] keys) {
    Objects.requireNonNull(keys, "keys");
    if (keys.length == 0) {
      throw new IllegalArgumentException(type + " needs at least one key");
    }
    CommandExecutor<K, V> x = executor();
    if (keys.length == 1) {
      K key = Objects.requireNonNull(keys[0], "keys[0]");
      return x.keyed(type, key, x.args(key), Outputs.integer(), flags);
    }
    AtomicLong total = new AtomicLong();
    // the caller may reuse its array once the call returned; the parts are encoded later
    K[] owned = keys.clone();
    return FanOut.run(
        x,
        owned,
        type,
        flags,
        Outputs.integer(),
        x.dispatcher().fanOutGrouping(),
        new FanOut.Plan<K, V, Long, Long>() {
          @Override
          public CommandArgs<K, V> args(int[] keyIndices) {
            return new PartArguments<>(x.codec(), owned, null, keyIndices);
          }

          @Override
          public void accept(int[] keyIndices, Long count) {
            total.addAndGet(count == null ? 0 : count);
          }

          @Override
          public Long result() {
            return total.get();
          }
        });
  }
}
