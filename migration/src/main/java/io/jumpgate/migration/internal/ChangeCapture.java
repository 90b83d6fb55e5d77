package io.jumpgate.migration.internal;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives the source's keyspace notifications and the drain barriers on one subscription.
 *
 * <ul>
 *   <li>A change of a key of a shard being moved makes the key pending in {@link PendingKeys}.
 *   <li>A write to a key of a shard already cut over is counted per shard and logged: after the
 *       cutover no client may write there, so each one is a lost write.
 *   <li>A barrier message completes its future: every notification the server sent before it has
 *       been handled by then, because the server sends them in execution order on one connection
 *       and this listener handles them in order on one Netty thread.
 * </ul>
 *
 * <p>Thread-safe. Listener methods run on the subscription's Netty thread and never block: they
 * route the key (a hash), take {@link PendingKeys}'s monitor briefly and bump counters. The shard
 * sets are immutable and swapped whole through volatile fields by the phase thread.
 */
public final class ChangeCapture extends RedisPubSubAdapter<byte[], byte[]> {

  private static final Logger LOG = LoggerFactory.getLogger(ChangeCapture.class);

  /** Each of a shard's first writes after cutover is logged, then one in this many. */
  static final int LOG_FIRST = 10;

  static final int LOG_EVERY = 1000;

  private final Xxh64JumpRouter router;
  private final PendingKeys pendingKeys;
  private final byte[] barrierChannel;
  private final String sourceName;
  private final Map<String, CompletableFuture<Void>> barriers = new ConcurrentHashMap<>();
  private final Set<RoutedKey> ownDeletes = ConcurrentHashMap.newKeySet();
  private final AtomicLongArray writesAfterCutover;
  private final AtomicLong writesAfterCutoverTotal = new AtomicLong();
  private volatile ShardSet moving;
  private volatile ShardSet cutOver;
  private volatile boolean lost;

  public ChangeCapture(
      Xxh64JumpRouter router, ShardSet moving, PendingKeys pendingKeys, String sourceName) {
    this.router = router;
    this.pendingKeys = pendingKeys;
    this.sourceName = sourceName;
    this.moving = moving;
    this.cutOver = ShardSet.empty(router.shardCount());
    this.writesAfterCutover = new AtomicLongArray(router.shardCount());
    this.barrierChannel =
        ("jumpgate:migration:barrier:" + UUID.randomUUID()).getBytes(StandardCharsets.US_ASCII);
  }

  /** The channel barriers are published on; subscribe to it with the keyspace pattern. */
  public byte[] barrierChannel() {
    return barrierChannel;
  }

  @Override
  public void message(byte[] pattern, byte[] channel, byte[] message) {
    byte[] key = KeyspaceEvents.keyOf(channel);
    if (key == null) {
      if (Arrays.equals(channel, barrierChannel)) {
        CompletableFuture<Void> barrier =
            barriers.remove(new String(message, StandardCharsets.US_ASCII));
        if (barrier != null) {
          barrier.complete(null);
        }
      }
      return;
    }
    int shard = router.shardOf(key);
    if (cutOver.contains(shard)) {
      onWriteAfterCutover(new RoutedKey(key, shard), message);
    } else if (moving.contains(shard)) {
      pendingKeys.changed(new RoutedKey(key, shard), KeyspaceEvents.isDeletion(message));
    }
  }

  @Override
  public void message(byte[] channel, byte[] message) {
    message(null, channel, message);
  }

  private void onWriteAfterCutover(RoutedKey key, byte[] event) {
    if (!KeyspaceEvents.isClientWrite(event)) {
      return; // expiries and evictions are the server's own, on the target too
    }
    if (KeyspaceEvents.isDeletion(event) && ownDeletes.remove(key)) {
      return; // the cleanup's own UNLINK
    }
    long count = writesAfterCutover.incrementAndGet(key.shard());
    writesAfterCutoverTotal.incrementAndGet();
    if (count <= LOG_FIRST || count % LOG_EVERY == 0) {
      LOG.error(
          "write after cutover on {}: key '{}' of shard {} ({}), write number {} for this shard;"
              + " a client still writes to the old leader and this write is lost",
          sourceName,
          key.printable(),
          key.shard(),
          new String(event, StandardCharsets.US_ASCII),
          count);
    }
  }

  /** Registers a barrier; publish {@code token} on {@link #barrierChannel()} next. */
  public CompletableFuture<Void> expectBarrier(String token) {
    CompletableFuture<Void> barrier = new CompletableFuture<>();
    barriers.put(token, barrier);
    if (lost) {
      barriers.remove(token);
      barrier.completeExceptionally(lostError());
    }
    return barrier;
  }

  /** Forgets a barrier that will not be waited for any more. */
  public void forgetBarrier(String token) {
    barriers.remove(token);
  }

  /**
   * The cleanup is about to delete {@code key}: its own {@code del} event is not a client write.
   */
  public void expectOwnDelete(RoutedKey key) {
    ownDeletes.add(key);
  }

  public void forgetOwnDeletes() {
    ownDeletes.clear();
  }

  /** The subscription dropped: nothing more will arrive, and waiting barriers fail. */
  public void onLost() {
    lost = true;
    for (String token : barriers.keySet()) {
      CompletableFuture<Void> barrier = barriers.remove(token);
      if (barrier != null) {
        barrier.completeExceptionally(lostError());
      }
    }
  }

  private IllegalStateException lostError() {
    return new IllegalStateException("the subscription to " + sourceName + " dropped");
  }

  public boolean isLost() {
    return lost;
  }

  public ShardSet moving() {
    return moving;
  }

  public ShardSet cutOver() {
    return cutOver;
  }

  /** Moves {@code shards} from the moving set to the cut-over set. */
  public void cutOver(ShardSet shards) {
    cutOver = cutOver.union(shards); // first: a notification in between is counted, not copied
    moving = moving.minus(shards);
  }

  public long writesAfterCutoverTotal() {
    return writesAfterCutoverTotal.get();
  }

  /** Writes seen after cutover, per shard, only shards with at least one; sorted by shard. */
  public Map<Integer, Long> writesAfterCutover() {
    Map<Integer, Long> counts = new TreeMap<>();
    for (int shard = 0; shard < writesAfterCutover.length(); shard++) {
      long count = writesAfterCutover.get(shard);
      if (count != 0) {
        counts.put(shard, count);
      }
    }
    return counts;
  }
}
