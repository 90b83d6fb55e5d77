package io.jumpgate.migration.internal;

import io.jumpgate.migration.ServerAddress;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.AsyncCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code MIGRATE ... COPY REPLACE KEYS}: the source pushes the batch to the target itself. A
 * re-copy first removes the keys on the target ({@code UNLINK}), then migrates them: MIGRATE skips
 * keys that no longer exist, so a key deleted on the source stays deleted on the target. The target
 * serves nobody for these shards until the cutover, so the moment without the key is not seen.
 *
 * <p>Thread-safe (it only dispatches).
 */
public final class MigrateBatchCopier implements BatchCopier {

  private final StatefulRedisConnection<byte[], byte[]> source;
  private final StatefulRedisConnection<byte[], byte[]> target;
  private final ServerAddress targetAddress;
  private final long migrateTimeoutMillis;

  public MigrateBatchCopier(
      StatefulRedisConnection<byte[], byte[]> source,
      StatefulRedisConnection<byte[], byte[]> target,
      ServerAddress targetAddress,
      long migrateTimeoutMillis) {
    this.source = source;
    this.target = target;
    this.targetAddress = targetAddress;
    this.migrateTimeoutMillis = migrateTimeoutMillis;
  }

  @Override
  public CompletableFuture<Outcome> copy(List<RoutedKey> keys, boolean mayBeGone) {
    List<byte[]> names = new ArrayList<>(keys.size());
    for (RoutedKey key : keys) {
      names.add(key.bytes());
    }
    if (!mayBeGone) {
      return migrate(names);
    }
    AsyncCommand<byte[], byte[], Long> unlink = Commands.unlink(names);
    target.dispatch(unlink);
    return unlink.thenCompose(removed -> migrate(names));
  }

  private CompletableFuture<Outcome> migrate(List<byte[]> names) {
    AsyncCommand<byte[], byte[], String> migrate =
        Commands.migrate(targetAddress, migrateTimeoutMillis, names);
    source.dispatch(migrate);
    return migrate.thenApply(reply -> new Outcome("NOKEY".equals(reply) ? 0 : names.size(), 0L));
  }
}
