package io.jumpgate.migration;

import io.jumpgate.migration.internal.Await;
import io.jumpgate.migration.internal.BatchBuilder;
import io.jumpgate.migration.internal.BatchCopier;
import io.jumpgate.migration.internal.ChangeCapture;
import io.jumpgate.migration.internal.Commands;
import io.jumpgate.migration.internal.CopyWindow;
import io.jumpgate.migration.internal.DumpRestoreBatchCopier;
import io.jumpgate.migration.internal.KeyspaceEvents;
import io.jumpgate.migration.internal.MigrateBatchCopier;
import io.jumpgate.migration.internal.PendingKeys;
import io.jumpgate.migration.internal.RatePacer;
import io.jumpgate.migration.internal.RoutedKey;
import io.jumpgate.migration.internal.ScanPages;
import io.jumpgate.migration.internal.ScriptBatchCopier;
import io.jumpgate.migration.internal.ServerConnections;
import io.jumpgate.migration.internal.ShardSet;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the keys of a set of virtual shards from one RESP server (the source, the shards' leader)
 * to another (the target) while the source keeps serving writes, and keeps the target up to date
 * with the source's changes until each shard is cut over. Keys are routed exactly as clients route
 * them ({@link Xxh64JumpRouter}: XXH64 of the key or of its hash tag, jump hash).
 *
 * <p>An orchestrator (the mover, which owns the etcd side: lock, freeze, acknowledgements, cutover
 * transaction) calls the phases in this order, one at a time:
 *
 * <ol>
 *   <li>{@link #prepare()}: switches on keyspace notifications on the source (keeping its flags),
 *       subscribes to them, removes keys of these shards left on the target by an aborted try.
 *   <li>{@link #copy()}: one SCAN pass over the source for every shard, keys filtered by shard and
 *       copied in pipelined batches with their value and TTL; keys changed meanwhile are copied
 *       again after, in order of change; returns after a bounded catch-up.
 *   <li>{@link #catchUp(Duration)}, as often as wanted: copies the changed keys again.
 *   <li>For each group of shards, once the clients hold their writes to them: {@link
 *       #drain(BitSet)} (a barrier on the change stream, then the last changed keys), the
 *       orchestrator's cutover, then {@link #markCutOver(BitSet)}. From then on a write to those
 *       shards on the source is counted ({@link #writesAfterCutover()}) and logged, never copied.
 *   <li>{@link #cleanup()}, after the orchestrator's grace period: removes the cut-over shards'
 *       keys from the source, throttled.
 *   <li>{@link #close()}: restores the source's {@code notify-keyspace-events} (the value it found,
 *       or the one given to {@link #restoreNotifyKeyspaceEventsTo}), closes everything.
 * </ol>
 *
 * <p><b>Why MIGRATE is the default.</b> {@code MIGRATE ... COPY REPLACE KEYS} moves a batch in one
 * command: the source serialises the values and writes them to the target itself, the mover only
 * sends key names. DUMP/RESTORE carries every value through the mover (in from the source, out to
 * the target) and costs two commands per key on the source and one on the target. Measured with
 * {@code io.jumpgate.bench.timing.CopyRateRun} (1,000,000 keys of 100 bytes, 256 of 1024 shards
 * moved, 2 busy cores): MIGRATE with 1,000 keys per batch 94k-106k keys/s idle and 81k under 20,000
 * writes/s, DUMP/RESTORE 84k-90k idle and 62k under the same load (docs/migration.md has the runs).
 * DUMP_RESTORE stays for servers that cannot reach each other. The price of MIGRATE: the source
 * serves nobody while the target restores a batch, so very large keys call for a smaller {@code
 * batchSize}.
 *
 * <p><b>Guarantees.</b> Each key is copied by at most one batch at a time; a key changed while it
 * is copied is copied again after. A MIGRATE reads the key when it runs, so a copy that starts
 * after the key's last change carries its last value; for DUMP/RESTORE the key stays "in flight"
 * until the RESTORE answered, so a change between the DUMP and the RESTORE leads to another copy.
 * Deleted, expired and evicted keys are removed on the target. {@link #drain} returns only when
 * every change made before it was called has been copied. They do not hold when: the subscription
 * drops ({@link ChangeCaptureLostException}: copy those shards again from scratch); a client runs
 * FLUSHALL, FLUSHDB or SWAPDB on the source (no keyspace event); another program changes {@code
 * notify-keyspace-events} meanwhile; two copiers work on one source at once (the first to close
 * restores the setting under the second).
 *
 * <p><b>Threads.</b> The phase methods block the calling thread, each wait bounded by the options;
 * they must not be called on a Netty thread, and only one runs at a time (a second concurrent call
 * gets an {@link IllegalStateException}). {@link #progress()}, {@link #writesAfterCutover()} and
 * {@link #close()} may be called from any thread at any time. Notifications are handled on a Netty
 * thread, without blocking. Defaults: {@link ShardCopierOptions#defaults()}.
 */
public final class ShardCopier implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ShardCopier.class);

  /** How often the copy asks the target how many bytes it received (MIGRATE). */
  private static final long BYTES_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private enum State {
    NEW,
    PREPARED,
    CLOSED
  }

  private final ServerAddress source;
  private final ServerAddress target;
  private final Xxh64JumpRouter router;
  private final ShardSet shards;
  private final ShardCopierOptions options;
  private final PendingKeys pendingKeys;
  private final ChangeCapture capture;
  private final ReentrantLock phaseLock = new ReentrantLock();

  private final AtomicLong keysScanned = new AtomicLong();
  private final AtomicLong keysCopied = new AtomicLong();
  private final AtomicLong bytesCopied = new AtomicLong();
  private final AtomicLong keysRecopied = new AtomicLong();
  private final AtomicLong keysDeleted = new AtomicLong();
  private final AtomicLong keysCleanedUp = new AtomicLong();

  private volatile State state = State.NEW;
  private volatile String runningPhase = "";
  private ServerConnections connections;
  private StatefulRedisConnection<byte[], byte[]> sourceConnection;
  private StatefulRedisConnection<byte[], byte[]> scanConnection;
  private StatefulRedisConnection<byte[], byte[]> targetConnection;
  private StatefulRedisPubSubConnection<byte[], byte[]> subscription;
  private BatchCopier copier;
  private volatile String previousNotifyKeyspaceEvents;
  private volatile String notifyKeyspaceEventsFound;
  private volatile String notifyKeyspaceEventsToRestore;
  private volatile long targetInputBaseline = -1;
  private long lastBytesRefresh;

  private ShardCopier(
      ServerAddress source,
      ServerAddress target,
      int shardCount,
      ShardSet shards,
      ShardCopierOptions options) {
    this.source = source;
    this.target = target;
    this.router = Xxh64JumpRouter.forShards(shardCount);
    this.shards = shards;
    this.options = options;
    this.pendingKeys = new PendingKeys(shardCount);
    this.capture = new ChangeCapture(router, shards, pendingKeys, "source " + source);
  }

  /**
   * A copier of {@code shards} from {@code source} to {@code target}; connects nothing until {@link
   * #prepare()}.
   *
   * @param shardCount the cluster's shard count (the routing function's bucket count)
   * @param shards the shards to move, at least one, each in {@code [0, shardCount)}; copied
   * @throws IllegalArgumentException if the shards are empty or out of range, or if source and
   *     target are the same server
   */
  public static ShardCopier create(
      ServerAddress source,
      ServerAddress target,
      int shardCount,
      BitSet shards,
      ShardCopierOptions options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(shards, "shards");
    Objects.requireNonNull(options, "options");
    if (shardCount < 1) {
      throw new IllegalArgumentException("shard count must be at least 1, was " + shardCount);
    }
    if (source.host().equals(target.host()) && source.port() == target.port()) {
      throw new IllegalArgumentException("source and target are the same server: " + source);
    }
    ShardSet set = ShardSet.of(shards, shardCount);
    if (set.isEmpty()) {
      throw new IllegalArgumentException("no shard to move");
    }
    return new ShardCopier(source, target, shardCount, set, options);
  }

  // ---- phases ---------------------------------------------------------------------------------

  /**
   * Switches on change capture on the source, subscribes to it, and removes the keys of these
   * shards left on the target by an earlier, aborted try.
   *
   * @throws ChangeCaptureUnavailableException if the source refuses {@code CONFIG GET} or {@code
   *     CONFIG SET}; nothing was changed on either server
   * @throws MigrationException if a server cannot be reached or a command fails; the source's
   *     setting is restored
   */
  public void prepare() {
    phase(
        "prepare",
        () -> {
          if (state != State.NEW) {
            throw new IllegalStateException("prepare() was already called");
          }
          int queue = Math.max(10_000, options.batchSize() * (options.pipelineDepth() + 2) * 2);
          connections =
              new ServerConnections(options.connectTimeout(), options.commandTimeout(), queue);
          try {
            sourceConnection = connections.connect(source, "copy");
            switchOnChangeCapture();
            subscription = connections.connectPubSub(source, this::onSubscriptionLost);
            subscription.addListener(capture);
            Await.result(
                subscription.async().psubscribe(KeyspaceEvents.PATTERN, capture.barrierChannel()),
                options.commandTimeout(),
                "PSUBSCRIBE on source " + source);
            scanConnection = connections.connect(source, "scan");
            targetConnection = connections.connect(target, "copy");
            copier =
                options.copyMethod() == CopyMethod.MIGRATE
                    ? new MigrateBatchCopier(
                        sourceConnection,
                        targetConnection,
                        target,
                        options.migrateTimeout().toMillis())
                    : options.copyMethod() == CopyMethod.SCRIPT
                        ? new ScriptBatchCopier(sourceConnection, targetConnection)
                        : new DumpRestoreBatchCopier(sourceConnection, targetConnection);
            long leftovers =
                deleteKeys(
                    targetConnection, targetConnection, "target " + target, shards, 0, false);
            if (leftovers > 0) {
              LOG.info(
                  "removed {} keys of the moved shards left on target {} by an earlier try",
                  leftovers,
                  target);
            }
            targetInputBaseline = targetInputBytes();
            state = State.PREPARED;
          } catch (RuntimeException e) {
            closeQuietly(e);
            throw e;
          }
          return null;
        });
  }

  /**
   * One SCAN pass over the source: every key of a shard being moved is copied with its value and
   * TTL; keys that change meanwhile are copied again. After the pass, keeps copying changed keys
   * for at most {@code catchUpTimeout}.
   *
   * @return the counters at the end
   * @throws ChangeCaptureLostException if the subscription dropped
   * @throws MigrationException if a batch failed or timed out
   */
  public CopyProgress copy() {
    return phase(
        "copy",
        () -> {
          requirePrepared();
          checkCapture();
          CopyWindow window = newWindow();
          ScanPages pages =
              new ScanPages(
                  scanConnection,
                  options.scanCount(),
                  options.commandTimeout(),
                  "source " + source);
          BatchBuilder batches = new BatchBuilder(options.batchSize());
          RatePacer pacer = new RatePacer(options.copyKeysPerSecond(), "copy from " + source);
          List<byte[]> page;
          while ((page = pages.next()) != null) {
            keysScanned.addAndGet(page.size());
            ShardSet moving = capture.moving();
            for (byte[] key : page) {
              int shard = router.shardOf(key);
              if (!moving.contains(shard)) {
                continue;
              }
              RoutedKey routed = new RoutedKey(key, shard);
              if (pendingKeys.claim(routed)) {
                List<RoutedKey> batch = batches.add(routed);
                if (batch != null) {
                  pacer.pace(batch.size());
                  window.add(batch, false, copier.copy(batch, false));
                }
              }
            }
            submitRecopies(window, null); // keeps the changed keys from piling up during the pass
            checkCapture();
            refreshBytesCopied(false);
          }
          List<RoutedKey> rest = batches.flush();
          if (!rest.isEmpty()) {
            pacer.pace(rest.size());
            window.add(rest, false, copier.copy(rest, false));
          }
          window.awaitAll();
          copyPending(window, null, System.nanoTime() + options.catchUpTimeout().toNanos());
          refreshBytesCopied(true);
          return progress();
        });
  }

  /**
   * Copies again the keys changed since they were copied, oldest change first, until none is
   * pending or {@code bound} has passed.
   *
   * @return keys still pending
   * @throws ChangeCaptureLostException if the subscription dropped
   */
  public long catchUp(Duration bound) {
    Objects.requireNonNull(bound, "bound");
    return phase(
        "catch-up",
        () -> {
          requirePrepared();
          checkCapture();
          copyPending(newWindow(), null, System.nanoTime() + bound.toNanos());
          refreshBytesCopied(false);
          return (long) pendingKeys.pendingCount();
        });
  }

  /** {@link #drain(BitSet)} of every shard being moved and not cut over yet. */
  public DrainResult drain() {
    return drain(capture.moving().toBitSet());
  }

  /**
   * Makes the target hold every change made on the source to {@code frozenShards} before this call:
   * PUBLISHes a unique token on the subscription's own barrier channel and waits for it (the server
   * sends notifications in execution order, so every change made before it has arrived), then
   * copies every pending key of these shards until none is pending or in flight. Call it while the
   * clients hold their writes to these shards, right before the cutover.
   *
   * @param frozenShards shards being moved and not cut over yet
   * @throws ChangeCaptureLostException if the subscription dropped
   * @throws MigrationException if the barrier did not come back within {@code barrierTimeout}, or
   *     keys were still pending after {@code drainTimeout}
   */
  public DrainResult drain(BitSet frozenShards) {
    Objects.requireNonNull(frozenShards, "frozenShards");
    return phase(
        "drain",
        () -> {
          requirePrepared();
          ShardSet frozen = ShardSet.of(frozenShards, router.shardCount());
          requireMoving(frozen, "drain");
          checkCapture();
          long start = System.nanoTime();
          awaitBarrier();
          long barrierArrived = System.nanoTime();
          int copied = copyPending(newWindow(), frozen, start + options.drainTimeout().toNanos());
          checkCapture();
          if (!pendingKeys.isSettled(frozen)) {
            throw new MigrationException(
                "drain of shards "
                    + frozen
                    + " on source "
                    + source
                    + " did not end within drainTimeout "
                    + options.drainTimeout()
                    + ": "
                    + pendingKeys.pendingCount(frozen)
                    + " keys still pending");
          }
          long end = System.nanoTime();
          return new DrainResult(
              Duration.ofNanos(barrierArrived - start), Duration.ofNanos(end - start), copied);
        });
  }

  /**
   * Records that the orchestrator moved {@code shards} to the target: their changes are no longer
   * copied, and any write to them seen on the source from now on is counted and logged.
   *
   * @param shards shards being moved and not cut over yet
   * @return pending keys of these shards that were dropped (changes after the drain: expiries, or
   *     writes the freeze should have held)
   */
  public int markCutOver(BitSet shards) {
    Objects.requireNonNull(shards, "shards");
    return phase(
        "mark-cut-over",
        () -> {
          requirePrepared();
          ShardSet set = ShardSet.of(shards, router.shardCount());
          requireMoving(set, "mark as cut over");
          capture.cutOver(set);
          int dropped = pendingKeys.drop(set);
          if (dropped > 0) {
            LOG.warn(
                "{} keys of shards {} changed on source {} after their drain; not copied",
                dropped,
                set,
                source);
          }
          return dropped;
        });
  }

  /**
   * Removes the keys of every shard marked cut over from the source: SCAN, filter by shard, UNLINK
   * in batches of {@code cleanupBatchSize}, at most {@code cleanupKeysPerSecond}. Writes after
   * cutover keep being counted until {@link #close()}; the cleanup's own deletions are not counted.
   *
   * @throws IllegalStateException if no shard is marked cut over
   */
  public CleanupResult cleanup() {
    return phase(
        "cleanup",
        () -> {
          requirePrepared();
          ShardSet cutOver = capture.cutOver();
          if (cutOver.isEmpty()) {
            throw new IllegalStateException("no shard is marked cut over: nothing to clean up");
          }
          long start = System.nanoTime();
          long deleted =
              deleteKeys(
                  scanConnection,
                  sourceConnection,
                  "source " + source,
                  cutOver,
                  options.cleanupKeysPerSecond(),
                  true);
          try {
            awaitBarrier(); // the cleanup's own del events have arrived: stop expecting them
          } catch (MigrationException e) {
            LOG.warn("barrier after the cleanup of source {} failed: {}", source, e.getMessage());
          }
          capture.forgetOwnDeletes();
          return new CleanupResult(deleted, Duration.ofNanos(System.nanoTime() - start));
        });
  }

  // ---- any thread -----------------------------------------------------------------------------

  /** The counters now; any thread, any time. */
  public CopyProgress progress() {
    return new CopyProgress(
        keysScanned.get(),
        keysCopied.get(),
        bytesCopied.get(),
        keysRecopied.get(),
        keysDeleted.get(),
        pendingKeys.pendingCount() + pendingKeys.inFlightCount(),
        keysCleanedUp.get(),
        capture.writesAfterCutoverTotal(),
        capture.isLost());
  }

  /**
   * Writes seen on the source after their shard was marked cut over, per shard (only shards with at
   * least one), sorted by shard. Each is a write a client sent to the old leader: lost.
   */
  public Map<Integer, Long> writesAfterCutover() {
    return capture.writesAfterCutover();
  }

  /**
   * The source's {@code notify-keyspace-events} as {@link #prepare()} found it, before changing it;
   * null before. A mover records it so that whoever finishes or undoes the migration after a crash
   * can put it back.
   */
  public String notifyKeyspaceEventsFound() {
    return notifyKeyspaceEventsFound;
  }

  /**
   * Makes {@link #close()} set the source's {@code notify-keyspace-events} to {@code original}
   * rather than to the value {@link #prepare()} finds, which is not the operator's when an earlier
   * copier of the same migration died with change capture on. Call it before {@link #prepare()}.
   *
   * @param original the value the source had before the first copier of the migration changed it
   * @throws IllegalStateException if {@link #prepare()} was already called
   */
  public void restoreNotifyKeyspaceEventsTo(String original) {
    Objects.requireNonNull(original, "original");
    synchronized (this) {
      if (state != State.NEW) {
        throw new IllegalStateException(
            "restoreNotifyKeyspaceEventsTo() must be called before prepare()");
      }
      notifyKeyspaceEventsToRestore = original;
    }
  }

  /** Whether the subscription to the source's notifications dropped. */
  public boolean changeCaptureLost() {
    return capture.isLost();
  }

  /**
   * Restores the source's {@code notify-keyspace-events} if {@link #prepare()} changed it (or found
   * it other than the value given to {@link #restoreNotifyKeyspaceEventsTo}), then closes every
   * connection. Idempotent; any thread.
   *
   * @throws MigrationException if the setting could not be restored (the message gives the value to
   *     set by hand); the connections are closed anyway
   */
  @Override
  public void close() {
    synchronized (this) {
      if (state == State.CLOSED) {
        return;
      }
      state = State.CLOSED;
    }
    MigrationException restoreFailure = restoreNotifyKeyspaceEvents();
    if (connections != null) {
      connections.close();
    }
    if (restoreFailure != null) {
      throw restoreFailure;
    }
  }

  // ---- internals ------------------------------------------------------------------------------

  private void switchOnChangeCapture() {
    String current;
    try {
      Map<String, String> reply =
          Await.result(
              sourceConnection.async().configGet(KeyspaceEvents.PARAMETER),
              options.commandTimeout(),
              "CONFIG GET " + KeyspaceEvents.PARAMETER + " on source " + source);
      current = reply.getOrDefault(KeyspaceEvents.PARAMETER, "");
    } catch (MigrationException e) {
      throw unavailable(e, "CONFIG GET", KeyspaceEvents.CAPTURE_FLAGS);
    }
    notifyKeyspaceEventsFound = current;
    String original = notifyKeyspaceEventsToRestore;
    String wanted = KeyspaceEvents.withCaptureFlags(current);
    if (wanted == null) {
      if (original != null && !original.equals(current)) {
        previousNotifyKeyspaceEvents = original;
        LOG.info(
            "source {}: notify-keyspace-events '{}' left by an earlier try; '{}', its value before"
                + " the migration, is restored on close",
            source,
            current,
            original);
      }
      return;
    }
    try {
      Await.result(
          sourceConnection.async().configSet(KeyspaceEvents.PARAMETER, wanted),
          options.commandTimeout(),
          "CONFIG SET " + KeyspaceEvents.PARAMETER + " " + wanted + " on source " + source);
    } catch (MigrationException e) {
      throw unavailable(e, "CONFIG SET", wanted);
    }
    previousNotifyKeyspaceEvents = original != null ? original : current;
    LOG.info(
        "source {}: notify-keyspace-events '{}' -> '{}' for change capture; '{}' restored on close",
        source,
        current,
        wanted,
        previousNotifyKeyspaceEvents);
  }

  private MigrationException unavailable(MigrationException error, String command, String value) {
    if (!(error.getCause() instanceof RedisCommandExecutionException)) {
      return error; // not a refusal: the server did not answer
    }
    return new ChangeCaptureUnavailableException(
        "source "
            + source
            + " refuses "
            + command
            + " ("
            + error.getCause().getMessage()
            + "), so the copy cannot switch on change capture by itself. Nothing was changed."
            + " Set it on the source and try again: 'notify-keyspace-events "
            + value
            + "' in its redis.conf, or 'CONFIG SET notify-keyspace-events "
            + value
            + "' as a user allowed to. Or move these shards offline, with no change capture and"
            + " no CONFIG SET: --offline on the jumpgate command (MoverOptions.offline(true) in"
            + " the API); each group of shards then stays frozen for the whole copy of its keys.",
        value,
        error.getCause());
  }

  private MigrationException restoreNotifyKeyspaceEvents() {
    String previous = previousNotifyKeyspaceEvents;
    if (previous == null || sourceConnection == null) {
      return null;
    }
    try {
      Await.result(
          sourceConnection.async().configSet(KeyspaceEvents.PARAMETER, previous),
          options.commandTimeout(),
          "restoring " + KeyspaceEvents.PARAMETER + " on source " + source);
      previousNotifyKeyspaceEvents = null;
      return null;
    } catch (MigrationException e) {
      return new MigrationException(
          "could not restore notify-keyspace-events on source "
              + source
              + " to '"
              + previous
              + "': set it by hand (CONFIG SET notify-keyspace-events \""
              + previous
              + "\")",
          e);
    }
  }

  private void closeQuietly(RuntimeException cause) {
    try {
      close();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private void onSubscriptionLost() {
    capture.onLost();
    LOG.error(
        "the subscription to source {}'s keyspace notifications dropped: changes to shards {} are"
            + " unknown from now on; copy them again from scratch",
        source,
        capture.moving());
  }

  private void checkCapture() {
    if (capture.isLost()) {
      throw new ChangeCaptureLostException(
          "the subscription to source "
              + source
              + "'s keyspace notifications dropped: changes to shards "
              + capture.moving()
              + " made since are unknown; copy them again from scratch",
          capture.moving().toBitSet());
    }
  }

  private void awaitBarrier() {
    String token = UUID.randomUUID().toString();
    CompletableFuture<Void> barrier = capture.expectBarrier(token);
    try {
      AsyncCommand<byte[], byte[], Long> publish =
          Commands.publish(capture.barrierChannel(), token.getBytes(StandardCharsets.US_ASCII));
      sourceConnection.dispatch(publish);
      Await.result(barrier, options.barrierTimeout(), "the drain barrier on source " + source);
    } catch (MigrationException e) {
      checkCapture();
      throw e;
    } finally {
      capture.forgetBarrier(token);
    }
  }

  private CopyWindow newWindow() {
    return new CopyWindow(
        options.pipelineDepth(),
        options.commandTimeout(),
        pendingKeys,
        finished -> {
          if (!finished.recopy()) {
            keysCopied.addAndGet(finished.outcome().keysWritten());
          }
          bytesCopied.addAndGet(finished.outcome().bytes());
        });
  }

  /** Dispatches at most one batch of pending keys; returns how many keys it holds. */
  private int submitRecopies(CopyWindow window, ShardSet filter) {
    List<PendingKeys.Entry> entries = pendingKeys.takeBatch(options.batchSize(), filter);
    if (entries.isEmpty()) {
      return 0;
    }
    List<RoutedKey> keys = new ArrayList<>(entries.size());
    for (PendingKeys.Entry entry : entries) {
      keys.add(entry.key());
      (entry.deleted() ? keysDeleted : keysRecopied).incrementAndGet();
    }
    window.add(keys, true, copier.copy(keys, true));
    return keys.size();
  }

  /**
   * Copies pending keys (of {@code filter}, or all if null) until none is pending or in flight, or
   * the deadline has passed; returns how many were handed out.
   */
  private int copyPending(CopyWindow window, ShardSet filter, long deadlineNanos) {
    int copied = 0;
    while (System.nanoTime() - deadlineNanos < 0) {
      int submitted = submitRecopies(window, filter);
      if (submitted == 0) {
        if (window.isEmpty()) {
          break;
        }
        window.awaitOldest(); // may make keys pending again
      }
      copied += submitted;
      checkCapture();
    }
    window.awaitAll();
    return copied;
  }

  /**
   * SCAN + filter by shard + UNLINK on one server; returns the keys removed.
   *
   * @param keysPerSecond throttle, 0 for none
   * @param ownDeletes whether the deletions are on the source (so their events are expected)
   */
  private long deleteKeys(
      StatefulRedisConnection<byte[], byte[]> scanOn,
      StatefulRedisConnection<byte[], byte[]> deleteOn,
      String serverName,
      ShardSet filter,
      int keysPerSecond,
      boolean ownDeletes) {
    ScanPages pages =
        new ScanPages(scanOn, options.scanCount(), options.commandTimeout(), serverName);
    BatchBuilder batches = new BatchBuilder(options.cleanupBatchSize());
    RatePacer pacer = new RatePacer(keysPerSecond, "removing keys on " + serverName);
    long deleted = 0;
    List<byte[]> page;
    while ((page = pages.next()) != null) {
      for (byte[] key : page) {
        int shard = router.shardOf(key);
        if (!filter.contains(shard)) {
          continue;
        }
        RoutedKey routed = new RoutedKey(key, shard);
        if (ownDeletes) {
          capture.expectOwnDelete(routed);
        }
        List<RoutedKey> batch = batches.add(routed);
        if (batch != null) {
          deleted += unlink(deleteOn, batch, serverName, ownDeletes);
          pacer.sent(batch.size());
        }
      }
    }
    List<RoutedKey> rest = batches.flush();
    if (!rest.isEmpty()) {
      deleted += unlink(deleteOn, rest, serverName, ownDeletes);
    }
    return deleted;
  }

  private long unlink(
      StatefulRedisConnection<byte[], byte[]> connection,
      List<RoutedKey> batch,
      String serverName,
      boolean countAsCleanup) {
    List<byte[]> names = new ArrayList<>(batch.size());
    for (RoutedKey key : batch) {
      names.add(key.bytes());
    }
    AsyncCommand<byte[], byte[], Long> unlink = Commands.unlink(names);
    connection.dispatch(unlink);
    long removed =
        Await.result(
            unlink,
            options.commandTimeout(),
            "UNLINK of " + names.size() + " keys on " + serverName);
    if (countAsCleanup) {
      keysCleanedUp.addAndGet(removed);
    }
    return removed;
  }

  private long targetInputBytes() {
    String info =
        Await.result(
            targetConnection.async().info("stats"),
            options.commandTimeout(),
            "INFO stats on target " + target);
    return parseNetInput(info);
  }

  /** Bytes copied for MIGRATE: what the target received since {@link #prepare()}. */
  private void refreshBytesCopied(boolean wait) {
    if (options.copyMethod() != CopyMethod.MIGRATE || targetInputBaseline < 0) {
      return;
    }
    long now = System.nanoTime();
    if (!wait && now - lastBytesRefresh < BYTES_REFRESH_NANOS) {
      return;
    }
    lastBytesRefresh = now;
    CompletableFuture<Void> refreshed =
        targetConnection
            .async()
            .info("stats")
            .toCompletableFuture()
            .thenAccept(
                info -> {
                  long received = parseNetInput(info) - targetInputBaseline;
                  bytesCopied.accumulateAndGet(received, Math::max);
                });
    if (wait) {
      try {
        Await.result(refreshed, options.commandTimeout(), "INFO stats on target " + target);
      } catch (MigrationException e) {
        LOG.debug("bytes copied not refreshed: {}", e.getMessage());
      }
    }
  }

  private static long parseNetInput(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("total_net_input_bytes:")) {
        return Long.parseLong(line.substring("total_net_input_bytes:".length()).trim());
      }
    }
    return 0;
  }

  private void requirePrepared() {
    if (state != State.PREPARED) {
      throw new IllegalStateException(
          state == State.NEW ? "call prepare() first" : "this copier is closed");
    }
  }

  private void requireMoving(ShardSet set, String what) {
    if (set.isEmpty()) {
      throw new IllegalArgumentException("no shard given to " + what);
    }
    ShardSet outside = set.minus(capture.moving());
    if (!outside.isEmpty()) {
      throw new IllegalArgumentException(
          "cannot "
              + what
              + " shards "
              + outside
              + ": not among the shards being moved (or already cut over); being moved: "
              + capture.moving());
    }
  }

  private <T> T phase(String name, Supplier<T> body) {
    if (!phaseLock.tryLock()) {
      throw new IllegalStateException(
          "cannot start " + name + " while " + runningPhase + " is running: one phase at a time");
    }
    try {
      runningPhase = name;
      return body.get();
    } finally {
      runningPhase = "";
      phaseLock.unlock();
    }
  }
}
