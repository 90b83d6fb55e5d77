package io.jumpgate.migration.internal;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.RedisCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code DUMP} + {@code PTTL} of every key on the source in one write, then {@code RESTORE key ttl
 * value REPLACE} (or {@code UNLINK} for keys gone) on the target in one write. Every value passes
 * through the mover.
 *
 * <p>The window between DUMP and RESTORE: a change made on the source after the DUMP is not in the
 * restored value, but the key stays in flight in {@link PendingKeys} until the RESTORE has
 * answered, so its notification makes it pending again and it is copied once more.
 *
 * <p>Thread-safe (it only dispatches; the RESTOREs are built on the Netty thread that completes the
 * last DUMP, without blocking).
 */
public final class DumpRestoreBatchCopier implements BatchCopier {

  private final StatefulRedisConnection<byte[], byte[]> source;
  private final StatefulRedisConnection<byte[], byte[]> target;

  public DumpRestoreBatchCopier(
      StatefulRedisConnection<byte[], byte[]> source,
      StatefulRedisConnection<byte[], byte[]> target) {
    this.source = source;
    this.target = target;
  }

  @Override
  public CompletableFuture<Outcome> copy(List<RoutedKey> keys, boolean mayBeGone) {
    List<AsyncCommand<byte[], byte[], byte[]>> dumps = new ArrayList<>(keys.size());
    List<AsyncCommand<byte[], byte[], Long>> ttls = new ArrayList<>(keys.size());
    List<RedisCommand<byte[], byte[], ?>> reads = new ArrayList<>(keys.size() * 2);
    for (RoutedKey key : keys) {
      AsyncCommand<byte[], byte[], byte[]> dump = Commands.dump(key.bytes());
      AsyncCommand<byte[], byte[], Long> ttl = Commands.pttl(key.bytes());
      dumps.add(dump);
      ttls.add(ttl);
      reads.add(dump);
      reads.add(ttl);
    }
    source.dispatch(reads);
    // The PTTL of the last key answers last: the connection answers in order, so every other
    // command has its answer (or its error, which join() rethrows) by then.
    return ttls.get(ttls.size() - 1).thenCompose(last -> restore(keys, dumps, ttls));
  }

  private CompletableFuture<Outcome> restore(
      List<RoutedKey> keys,
      List<AsyncCommand<byte[], byte[], byte[]>> dumps,
      List<AsyncCommand<byte[], byte[], Long>> ttls) {
    List<AsyncCommand<byte[], byte[], ?>> writes = new ArrayList<>(keys.size());
    List<byte[]> gone = new ArrayList<>();
    long bytes = 0;
    int restored = 0;
    for (int index = 0; index < keys.size(); index++) {
      byte[] key = keys.get(index).bytes();
      byte[] value = dumps.get(index).join();
      long ttl = ttls.get(index).join();
      if (value == null || ttl == -2) {
        gone.add(key);
        continue;
      }
      writes.add(Commands.restore(key, Math.max(ttl, 0), value));
      bytes += key.length + value.length;
      restored++;
    }
    if (!gone.isEmpty()) {
      writes.add(Commands.unlink(gone));
    }
    if (writes.isEmpty()) {
      return CompletableFuture.completedFuture(new Outcome(0, 0));
    }
    target.dispatch(writes);
    Outcome outcome = new Outcome(restored, bytes);
    return writes
        .get(writes.size() - 1)
        .thenApply(
            last -> {
              for (AsyncCommand<byte[], byte[], ?> write : writes) {
                write.join(); // rethrows the error of a refused RESTORE
              }
              return outcome;
            });
  }
}
