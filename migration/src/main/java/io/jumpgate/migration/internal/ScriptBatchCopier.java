package io.jumpgate.migration.internal;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.AsyncCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A batch read with one Lua script on the source ({@code DUMP} and {@code PTTL} of every key) and
 * written with one Lua script on the target ({@code RESTORE key ttl value REPLACE} of every key
 * still there, then {@code UNLINK} of the keys gone): two commands a batch, whatever its size.
 *
 * <p>Why: the source only runs the reads, a few microseconds a key, and never waits for the target
 * (a {@code MIGRATE} keeps the source busy until the target has restored the whole batch); and the
 * mover handles two commands a batch instead of three a key.
 *
 * <p>The window between the read and the write is the one of {@link DumpRestoreBatchCopier}: the
 * key stays in flight in {@link PendingKeys} until the target has answered, so a change made on the
 * source after the read makes it pending again and it is copied once more.
 *
 * <p>Thread-safe (it only dispatches; the write is built on the Netty thread that completes the
 * read, without blocking).
 */
public final class ScriptBatchCopier implements BatchCopier {

  /** Answers {@code [dump1, pttl1, dump2, pttl2, ...]}; a missing key gives nil and -2. */
  static final String READ_SCRIPT =
      "local r = {} "
          + "for i, k in ipairs(KEYS) do "
          + "r[2 * i - 1] = redis.call('DUMP', k) "
          + "r[2 * i] = redis.call('PTTL', k) "
          + "end "
          + "return r";

  /**
   * KEYS: the keys to restore then the keys to remove; ARGV[1]: how many to restore, then ttl,
   * value pairs.
   */
  static final String WRITE_SCRIPT =
      "local n = tonumber(ARGV[1]) "
          + "for i = 1, n do "
          + "redis.call('RESTORE', KEYS[i], ARGV[2 * i], ARGV[2 * i + 1], 'REPLACE') "
          + "end "
          + "if #KEYS > n then "
          + "redis.call('UNLINK', unpack(KEYS, n + 1)) "
          + "end "
          + "return n";

  private final StatefulRedisConnection<byte[], byte[]> source;
  private final StatefulRedisConnection<byte[], byte[]> target;

  public ScriptBatchCopier(
      StatefulRedisConnection<byte[], byte[]> source,
      StatefulRedisConnection<byte[], byte[]> target) {
    this.source = source;
    this.target = target;
  }

  @Override
  public CompletableFuture<Outcome> copy(List<RoutedKey> keys, boolean mayBeGone) {
    List<byte[]> names = new ArrayList<>(keys.size());
    for (RoutedKey key : keys) {
      names.add(key.bytes());
    }
    AsyncCommand<byte[], byte[], List<Object>> read = Commands.eval(READ_SCRIPT, names, List.of());
    source.dispatch(read);
    return read.thenCompose(reply -> write(names, reply));
  }

  private CompletableFuture<Outcome> write(List<byte[]> names, List<Object> reply) {
    if (reply.size() != names.size() * 2) {
      throw new IllegalStateException(
          "the read script answered " + reply.size() + " values for " + names.size() + " keys");
    }
    List<byte[]> present = new ArrayList<>(names.size());
    List<byte[]> gone = new ArrayList<>();
    List<byte[]> arguments = new ArrayList<>(names.size() * 2 + 1);
    arguments.add(null); // the count, set below
    long bytes = 0;
    for (int index = 0; index < names.size(); index++) {
      byte[] key = names.get(index);
      Object value = reply.get(2 * index);
      long ttl = ((Number) reply.get(2 * index + 1)).longValue();
      if (!(value instanceof byte[] payload) || ttl == -2) {
        gone.add(key);
        continue;
      }
      present.add(key);
      arguments.add(Commands.ascii(Math.max(ttl, 0)));
      arguments.add(payload);
      bytes += key.length + payload.length;
    }
    arguments.set(0, Commands.ascii(present.size()));
    int restored = present.size();
    if (restored == 0 && gone.isEmpty()) {
      return CompletableFuture.completedFuture(new Outcome(0, 0));
    }
    present.addAll(gone);
    AsyncCommand<byte[], byte[], List<Object>> write =
        Commands.eval(WRITE_SCRIPT, present, arguments);
    target.dispatch(write);
    long written = bytes;
    return write.thenApply(answer -> new Outcome(restored, written));
  }
}
