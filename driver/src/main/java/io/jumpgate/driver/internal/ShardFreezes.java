package io.jumpgate.driver.internal;

import io.jumpgate.driver.ShardFrozenException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's part in a migration's cutover (docs/migration.md): requests to a shard that is
 * frozen under a live migration lock are held, in arrival order, in a bounded queue; when the
 * freeze ends they go where the newer map says, in the same order. Meanwhile the client
 * acknowledges the freeze: once every try routed with an older map has been handed to Lettuce
 * ({@link DispatchGate}) and a PING on the connection to each old leader has come back (Redis
 * answers in order, so every earlier command there has run), it reports the map revision as drained
 * ({@code "drained": R} in its registry key).
 *
 * <p>Bounds: at most {@code freezeMaxRequests} held at once and each at most {@code freezeMaxWait}
 * (or its deadline, whichever comes first); past them a request fails with {@link
 * ShardFrozenException}, never sent. An acknowledgement that cannot be proven (a PING fails, the
 * gate does not quiet down in time) is not given, until a map in which no shard is held.
 *
 * <p>Threading: {@link #hold} on any thread; the release and the acknowledgement steps on the
 * topology thread; timers on the scheduler; the acknowledgements complete on Netty threads and are
 * passed on in revision order. Nothing here blocks but the topology thread's bounded wait for the
 * gate.
 */
final class ShardFreezes {

  private static final Logger LOG = LoggerFactory.getLogger(ShardFreezes.class);

  /** The longest the topology thread waits for tries routed with an older map to reach Lettuce. */
  static final long GATE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Dispatcher dispatcher;
  private final TaskScheduler scheduler;
  private final DriverMetrics metrics;
  private final DispatchGate gate;
  private final HeldRequests held;
  private final long maxWaitNanos;
  private final int maxRequests;

  /** The acknowledgements, one step per applied map, completed in revision order. */
  private CompletableFuture<Void> acknowledgements = CompletableFuture.completedFuture(null);

  /** Set when an acknowledgement could not be proven; cleared by a map with no shard held. */
  private boolean unproven;

  private volatile long drainedRevision = -1;
  private volatile DrainListener listener;

  ShardFreezes(
      Dispatcher dispatcher,
      TaskScheduler scheduler,
      DriverMetrics metrics,
      DispatchGate gate,
      int maxRequests,
      long maxWaitNanos) {
    this.dispatcher = dispatcher;
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.gate = gate;
    this.held = new HeldRequests(maxRequests);
    this.maxRequests = maxRequests;
    this.maxWaitNanos = maxWaitNanos;
  }

  // ---- holding ---------------------------------------------------------------------------------

  /**
   * Whether this try must be held: some shard of it is held, and it goes to that shard's leader
   * (reads that the read policy sends to a replica go on). Broadcasts are never held.
   */
  static boolean mustHold(RoutedCommand<?, ?, ?> command, NodeHandle node, RoutingTable table) {
    if (command.fixedNode() != null) {
      return false;
    }
    if (command.isGroup()) {
      for (int index = 0, size = command.groupSize(); index < size; index++) {
        int shard = command.groupShard(index);
        if (table.isHeld(shard) && node == table.leader(shard)) {
          return true;
        }
      }
      return false;
    }
    int shard = command.shard();
    return shard >= 0 && table.isHeld(shard) && node == table.leader(shard);
  }

  /** Whether any shard of the command is held in this table, wherever it would go. */
  private static boolean anyShardHeld(RoutedCommand<?, ?, ?> command, RoutingTable table) {
    if (!table.hasHeld()) {
      return false;
    }
    if (command.isGroup()) {
      for (int index = 0, size = command.groupSize(); index < size; index++) {
        if (table.isHeld(command.groupShard(index))) {
          return true;
        }
      }
      return false;
    }
    return command.shard() >= 0 && table.isHeld(command.shard());
  }

  /** Holds a try until its shard's freeze ends, or fails it at the bound. */
  void hold(RoutedCommand<?, ?, ?> command, CommandTry<?, ?, ?> attempt) {
    long now = scheduler.nanoTime();
    HeldRequests.Held request = new HeldRequests.Held(command, attempt, now);
    if (!held.add(request)) {
      dispatcher.failed(
          command,
          frozen(
              command,
              "was not sent: "
                  + maxRequests
                  + " requests to frozen shards are held already (freezeMaxRequests)"),
          now);
      return;
    }
    metrics.requestHeld();
    long wait = Math.max(0, Math.min(maxWaitNanos, command.deadlineNanos() - now));
    try {
      request.cancelTimer = scheduler.schedule(() -> expire(request), wait);
    } catch (RejectedExecutionException e) {
      if (held.claim(request)) {
        dispatcher.closedBetweenTries(command, attempt.number());
      }
      return;
    }
    // The freeze may have ended between routing and queueing: then this try goes now, itself, so
    // that it is sent before anything its caller sends next.
    RoutingTable current = dispatcher.table();
    if (!anyShardHeld(command, current) && held.claim(request)) {
      request.cancelTimer();
      metrics.requestReleased(scheduler.nanoTime() - request.heldAtNanos);
      dispatcher.resend(command, attempt);
    }
  }

  private void expire(HeldRequests.Held request) {
    if (!held.claim(request)) {
      return;
    }
    long now = scheduler.nanoTime();
    metrics.requestReleased(now - request.heldAtNanos);
    dispatcher.failed(
        request.command,
        frozen(
            request.command,
            "was held "
                + TimeUnit.NANOSECONDS.toMillis(now - request.heldAtNanos)
                + " ms while its shard was frozen for a migration and never sent"
                + " (freezeMaxWait or its deadline ran out)"),
        now);
  }

  private ShardFrozenException frozen(RoutedCommand<?, ?, ?> command, String what) {
    return new ShardFrozenException(
        command.commandName() + " for shard " + command.shard() + " " + what,
        command.commandName(),
        command.shard(),
        command.attempts(),
        dispatcher.outcomeOf(command));
  }

  /**
   * Sends every held try that {@code next} no longer holds, in arrival order: before {@code next}
   * is published ({@code beforePublishing}, routed with {@code next} directly, so that they leave
   * before any try routed with {@code next} by another thread), and once more after it (for tries
   * that were queued meanwhile). Topology thread.
   */
  void release(RoutingTable next, boolean beforePublishing) {
    if (held.size() == 0) {
      return;
    }
    held.releaseWhere(
        request -> !anyShardHeld(request.command, next),
        request -> {
          request.cancelTimer();
          metrics.requestReleased(scheduler.nanoTime() - request.heldAtNanos);
          if (beforePublishing) {
            dispatcher.sendWith(request.command, request.attempt, next);
          } else {
            dispatcher.resend(request.command, request.attempt);
          }
        });
  }

  /** Requests held now. */
  int heldCount() {
    return held.size();
  }

  /** Fails every held request (the client closes). */
  void close() {
    held.releaseWhere(
        request -> true,
        request -> {
          request.cancelTimer();
          dispatcher.closedBetweenTries(request.command, request.attempt.number());
        });
  }

  // ---- acknowledging ---------------------------------------------------------------------------

  /** Who hears of each drained revision (the client registration); told the last one at once. */
  void listener(DrainListener drained) {
    this.listener = drained;
    long revision = drainedRevision;
    if (revision >= 0) {
      drained.drained(revision, true);
    }
  }

  /** The highest map revision acknowledged as drained, or -1. */
  long drainedRevision() {
    return drainedRevision;
  }

  /**
   * Adds the acknowledgement step of a newly published table. Topology thread, after {@code next}
   * was published and the held tries it frees were sent.
   *
   * @param gateQuietBeforePublishing whether the tries of two tables ago had all reached Lettuce
   */
  void acknowledge(RoutingTable previous, RoutingTable next, boolean gateQuietBeforePublishing) {
    long revision = next.revision();
    boolean anyHeld = next.hasHeld();
    Set<NodeHandle> oldLeaders = newlyHeldLeaders(previous, next);
    boolean proven = gateQuietBeforePublishing;
    CompletableFuture<Void> drained = CompletableFuture.completedFuture(null);
    if (!oldLeaders.isEmpty()) {
      metrics.freezeSeen();
      // every try routed with the previous table must be in its connection before the PINGs
      if (!gate.awaitQuiet(next.generation() - 1, GATE_WAIT_NANOS)) {
        LOG.warn(
            "tries routed before revision {} did not reach their connections within {} ms:"
                + " the freeze is not acknowledged",
            revision,
            TimeUnit.NANOSECONDS.toMillis(GATE_WAIT_NANOS));
        proven = false;
      }
      drained = pingAll(oldLeaders);
    }
    boolean provenHere = proven;
    boolean urgent = !oldLeaders.isEmpty() || (previous != null && previous.hasHeld());
    CompletableFuture<Void> pinged = drained;
    acknowledgements =
        acknowledgements
            .thenCompose(ignored -> pinged)
            .handle(
                (ignored, error) -> {
                  if (error != null || !provenHere) {
                    if (error != null) {
                      LOG.warn(
                          "a PING to an old leader failed: revision {} is not acknowledged: {}",
                          revision,
                          error.toString());
                    }
                    unproven = true;
                  }
                  if (!anyHeld) {
                    unproven = false; // no shard frozen: nothing can be in flight to one
                  }
                  if (!unproven) {
                    drained(revision, urgent);
                  }
                  return null;
                });
  }

  private void drained(long revision, boolean urgent) {
    if (revision <= drainedRevision) {
      return;
    }
    drainedRevision = revision;
    DrainListener current = listener;
    if (current != null) {
      current.drained(revision, urgent);
    }
  }

  private static Set<NodeHandle> newlyHeldLeaders(RoutingTable previous, RoutingTable next) {
    Set<NodeHandle> leaders = new LinkedHashSet<>();
    if (!next.hasHeld()) {
      return leaders;
    }
    int shards = next.snapshot().shardCount();
    for (int shard = 0; shard < shards; shard++) {
      if (next.isHeld(shard) && (previous == null || !previous.isHeld(shard))) {
        NodeHandle leader = next.leader(shard);
        if (leader != null) {
          leaders.add(leader);
        }
        // the shard's leader in the previous map, if it moved meanwhile
        NodeHandle before = previous == null ? null : previous.leader(shard);
        if (before != null) {
          leaders.add(before);
        }
      }
    }
    return leaders;
  }

  /** A PING on each node's connection; each answer proves every earlier command there ran. */
  private static CompletableFuture<Void> pingAll(Set<NodeHandle> nodes) {
    List<CompletableFuture<?>> pings = new ArrayList<>();
    for (NodeHandle node : nodes) {
      StatefulRedisConnection<byte[], byte[]> connection = node.connectionIfAny();
      if (connection == null) {
        continue; // never connected: nothing was sent there
      }
      if (!connection.isOpen()) {
        pings.add(
            CompletableFuture.failedFuture(
                new IllegalStateException(
                    "the connection to " + node.node().address() + " is down")));
        continue;
      }
      // With (empty) arguments, as every command the client sends has: Lettuce's encoder then
      // takes its usual path, and the first freeze does not make the JIT recompile the hot path.
      AsyncCommand<byte[], byte[], String> ping =
          new AsyncCommand<>(
              new Command<>(
                  CommandType.PING,
                  new StatusOutput<>(ByteArrayCodec.INSTANCE),
                  new CommandArgs<>(ByteArrayCodec.INSTANCE)));
      try {
        connection.dispatch(ping);
      } catch (RuntimeException e) {
        ping.completeExceptionally(e);
      }
      pings.add(ping.toCompletableFuture());
    }
    return CompletableFuture.allOf(pings.toArray(CompletableFuture[]::new));
  }
}
