package io.jumpgate.driver.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.jumpgate.driver.ClientClosedException;
import io.jumpgate.driver.CommandEvent;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.CommandListener;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.driver.Outcome;
import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.driver.RetriesExhaustedException;
import io.jumpgate.driver.RetryContext;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.driver.RetryPolicy;
import io.jumpgate.driver.RetryVerdict;
import io.jumpgate.spi.ShardUnavailableException;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.RedisCommand;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine of the driver: picks the node for each try of each command, hands the try to that
 * node's Lettuce connection, and decides what happens when a try fails.
 *
 * <p>Hot path ({@link #send}): one volatile read of the routing table, array reads for the node,
 * one volatile read for its connection, Lettuce's {@code dispatch}. No lock, no allocation of its
 * own.
 *
 * <p>Failures follow the {@link RetryPolicy} of the options (by default the rules of
 * docs/driver.md): the server's own answers reach the caller unchanged without asking it; a try
 * that provably did not run may be tried again whatever the command; one that may have run only
 * when the command allows it. READONLY and MOVED wait (bounded, in {@link TopologyWaiters}) for a
 * newer topology revision, or follow a MOVED that names a known node at once; other retriable
 * failures back off with jitter. Every wait is bounded by the retry options and the command's
 * deadline, and every wait is released at its end: nothing is retained once a command ended. The
 * topology thread calls {@link #onTopologyChange}; retries run on the scheduler, never on the
 * topology thread, never blocking a thread. A retry that cannot be scheduled (the client closed)
 * fails its command.
 */
public final class Dispatcher implements TopologyListener {

  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  /** Grace for a connection to a node that left the map: every command sent before has ended. */
  private final long retireGraceNanos;

  private final JumpgateOptions options;
  private final RetryOptions retry;
  private final RetryPolicy retryPolicy;
  private final ReadPolicy readPolicy;
  private final ConnectionOpener opener;
  private final TaskScheduler scheduler;
  private final DriverMetrics metrics;
  private final Cache<String, NodeHandle> handles;
  private final CommandListener commandListener;
  private final TopologyWaiters waiters;
  private final DispatchGate gate = new DispatchGate();
  private final ShardFreezes freezes;
  private final LongAdder inFlight = new LongAdder();

  private volatile RoutingTable table;
  private volatile boolean accepting = true;
  private volatile boolean closed;

  public Dispatcher(
      JumpgateOptions options,
      ConnectionOpener opener,
      TaskScheduler scheduler,
      DriverMetrics metrics) {
    this(options, opener, scheduler, metrics, TopologyWaiters.DEFAULT_CAPACITY);
  }

  Dispatcher(
      JumpgateOptions options,
      ConnectionOpener opener,
      TaskScheduler scheduler,
      DriverMetrics metrics,
      int maxWaitingForTopology) {
    this.options = options;
    this.retry = options.retry();
    this.retryPolicy = options.retryPolicy();
    this.readPolicy = options.readPolicy();
    this.opener = opener;
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.commandListener = options.commandListener().orElse(null);
    this.waiters = new TopologyWaiters(maxWaitingForTopology);
    this.freezes =
        new ShardFreezes(
            this,
            scheduler,
            metrics,
            gate,
            options.freezeMaxRequests(),
            options.freezeMaxWait().toNanos());
    this.retireGraceNanos = options.commandTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
    this.handles =
        Caffeine.newBuilder()
            .executor(Runnable::run)
            .removalListener(
                (String identity, NodeHandle handle, RemovalCause cause) -> {
                  if (handle != null) {
                    handle.retire(retireGraceNanos);
                  }
                })
            .build();
  }

  /** Now on the dispatcher's clock: command deadlines are on this scale. */
  public long nanoTime() {
    return scheduler.nanoTime();
  }

  // ---- topology --------------------------------------------------------------------------------

  /**
   * Builds the routing table of a new snapshot and publishes it; then wakes the commands that wait
   * for a newer map (their retries run on the scheduler) and adds the acknowledgement of any new
   * freeze. Requests held for shards the new map no longer freezes are sent, in order, routed with
   * the new table, before it is published. Called on the topology thread.
   */
  @Override
  public void onTopologyChange(TopologySnapshot previous, TopologySnapshot current) {
    RoutingTable before = table;
    long generation = before == null ? 0 : before.generation() + 1;
    RoutingTable next =
        new RoutingTable(
            current,
            node ->
                handles.get(
                    NodeHandle.identityOf(node), id -> new NodeHandle(node, opener, scheduler)),
            options.zone().orElse(null),
            generation);
    // The counter the new table reuses must be free of tries of two tables ago.
    boolean gateQuiet = gate.awaitQuiet(generation, ShardFreezes.GATE_WAIT_NANOS);
    freezes.release(next, true);
    table = next;
    freezes.release(next, false);
    freezes.acknowledge(before, next, gateQuiet);
    Set<String> inUse = new HashSet<>();
    for (NodeHandle handle : next.allNodes()) {
      inUse.add(handle.identity());
    }
    for (String identity : Set.copyOf(handles.asMap().keySet())) {
      if (!inUse.contains(identity)) {
        handles.invalidate(identity);
      }
    }
    // After the table: a waiter that joins from now on sees the new revision itself.
    waiters.wakeAll(this::wake);
    metrics.topologyApplied(current);
    if (options.warmUp()) {
      for (NodeHandle leader : next.leaderNodes()) {
        leader.connection();
      }
    }
  }

  /** The routing table in force, or null before the first topology. */
  public RoutingTable table() {
    return table;
  }

  // ---- sending ---------------------------------------------------------------------------------

  /** Sends the first try of a command. */
  public <K, V, T> RoutedCommand<K, V, T> send(RoutedCommand<K, V, T> command) {
    if (!accepting) {
      if (command.markEnded()) {
        command.failFuture(new IllegalStateException("the Jumpgate client is closed"));
      }
      return command;
    }
    inFlight.increment();
    sendTry(command, command.currentTry());
    return command;
  }

  /**
   * Routes a try with the table in force and hands it to its node, inside the {@link DispatchGate}
   * of that table's generation.
   */
  private <K, V, T> void sendTry(RoutedCommand<K, V, T> command, CommandTry<K, V, T> attempt) {
    RoutingTable current;
    LongAdder counter;
    while (true) {
      current = table;
      counter = gate.counterOf(current.generation());
      counter.increment();
      if (table == current) {
        break;
      }
      counter.decrement(); // a newer table came in between: route with that one
    }
    try {
      sendWith(command, attempt, current);
    } finally {
      counter.decrement();
    }
  }

  /** Sends a try again from the start (a held or waiting try whose wait ended). */
  void resend(RoutedCommand<?, ?, ?> command, CommandTry<?, ?, ?> attempt) {
    sendTryUnchecked(command, attempt);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void sendTryUnchecked(RoutedCommand command, CommandTry attempt) {
    sendTry(command, attempt);
  }

  /** Routes a try with this table and hands it to its node (or holds it, or fails it). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  void sendWith(RoutedCommand command, CommandTry attempt, RoutingTable current) {
    NodeHandle node = command.takeRedirect();
    boolean redirected = node != null;
    if (node == null) {
      node = chooseNode(command, current);
      if (node == null) {
        if (command.isGroup()) {
          // the shards of this fan-out part are no longer served by one node: split again
          failed(command, new RegroupNeededException(), scheduler.nanoTime());
          return;
        }
        // no route: the shard has no valid assignment (or no replica for REPLICA reads)
        ShardUnavailableException unavailable = unavailable(command, current);
        command.recordAttempt(attempt.number(), unavailable.getMessage(), scheduler.nanoTime());
        failed(command, unavailable, scheduler.nanoTime());
        return;
      }
    }
    if (current.hasHeld() && ShardFreezes.mustHold(command, node, current)) {
      command.target(node, current.revision());
      freezes.hold(command, attempt);
      return;
    }
    command.target(node, current.revision());
    StatefulRedisConnection<byte[], byte[]> connection = node.openConnection();
    if (connection != null) {
      dispatch(connection, command, attempt);
      return;
    }
    sendWhenConnected(command, attempt, node, redirected);
  }

  /**
   * The node has no open connection. A node that is down or left the map fails the try at once (not
   * run); the first connect to a node is waited for, bounded by the command's deadline. The wait
   * and the send race for the try: exactly one of them wins, so a try whose wait expired is never
   * sent.
   */
  private <K, V, T> void sendWhenConnected(
      RoutedCommand<K, V, T> command,
      CommandTry<K, V, T> attempt,
      NodeHandle node,
      boolean redirected) {
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> pending =
        node.connection().toCompletableFuture();
    if (pending.isDone()) {
      if (pending.isCompletedExceptionally()) {
        attempt.failTry(FailureKind.unwrap(failureOf(pending)));
      } else {
        dispatch(pending.join(), command, attempt);
      }
      return;
    }
    long left = command.deadlineNanos() - scheduler.nanoTime();
    SendRace<K, V, T> race = new SendRace<>(attempt);
    Runnable cancelExpiry;
    try {
      cancelExpiry =
          left <= 0
              ? null
              : scheduler.schedule(() -> race.expire(connectionWaitExpired(node)), left);
    } catch (RejectedExecutionException e) {
      attempt.failTry(e);
      return;
    }
    if (cancelExpiry == null) {
      race.expire(connectionWaitExpired(node));
      return;
    }
    pending.whenComplete(
        (opened, error) -> {
          cancelExpiry.run();
          if (error != null) {
            race.fail(FailureKind.unwrap(error));
          } else if (race.claimSend()) {
            // routed again, inside the gate: the map may have moved or frozen meanwhile (a node
            // a MOVED named stays the target)
            if (redirected) {
              command.redirect(node);
            }
            resend(command, attempt);
          }
        });
  }

  private static Throwable failureOf(CompletableFuture<?> future) {
    try {
      future.join();
      return new IllegalStateException("no connection");
    } catch (RuntimeException e) {
      return e;
    }
  }

  /** Who ends a try that waits for its connection: the send, the wait's expiry, or the failure. */
  private static final class SendRace<K, V, T> {
    private final CommandTry<K, V, T> attempt;
    private final java.util.concurrent.atomic.AtomicBoolean decided =
        new java.util.concurrent.atomic.AtomicBoolean();

    SendRace(CommandTry<K, V, T> attempt) {
      this.attempt = attempt;
    }

    boolean claimSend() {
      return decided.compareAndSet(false, true);
    }

    void expire(Throwable error) {
      if (decided.compareAndSet(false, true)) {
        attempt.failTry(error);
      }
    }

    void fail(Throwable error) {
      if (decided.compareAndSet(false, true)) {
        attempt.failTry(error);
      }
    }
  }

  private static SendWaitExpiredException connectionWaitExpired(NodeHandle node) {
    return new SendWaitExpiredException(
        "the connection to "
            + node.node().address()
            + " was not ready within the command's deadline; not sent");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void dispatch(
      StatefulRedisConnection<byte[], byte[]> connection,
      RoutedCommand<?, ?, ?> command,
      CommandTry<?, ?, ?> attempt) {
    LoopTurn turn = LoopTurn.holding();
    if (turn != null && LoopTurn.worthHolding(command)) {
      // a completion callback inside a read: sent with the read's other tries when it completes
      turn.hold(connection, attempt, scheduler.nanoTime());
      return;
    }
    try {
      // The node connection is typed for byte arrays; a command carries its own codec in its
      // arguments and output, so any key and value types can share it.
      connection.dispatch((RedisCommand) attempt);
    } catch (RuntimeException e) {
      attempt.failTry(e);
    }
  }

  private NodeHandle chooseNode(RoutedCommand<?, ?, ?> command, RoutingTable current) {
    NodeHandle pinned = command.fixedNode();
    if (pinned != null) {
      return pinned;
    }
    if (command.isGroup()) {
      if (command.attempt() == 1 && command.groupGeneration() == current.generation()) {
        return command.firstNode();
      }
      // A retry, or a first try under a newer table than the part was grouped with (it was held
      // or waited), goes to the leader now, which holds every key of the part under any read
      // policy.
      NodeHandle shared = current.leader(command.groupShard(0));
      int size = command.groupSize();
      for (int index = 1; index < size && shared != null; index++) {
        if (current.leader(command.groupShard(index)) != shared) {
          return null;
        }
      }
      return shared;
    }
    return chooseFor(command.flags(), command.shard(), current);
  }

  /** The node a command with these flags goes to for this shard, or null. */
  NodeHandle nodeFor(int flags, int shard, RoutingTable current) {
    return chooseFor(flags, shard, current);
  }

  /** How fan-outs split their keys. */
  public FanOutGrouping fanOutGrouping() {
    return options.fanOutGrouping();
  }

  /** A fan-out sent this many parts. */
  void fanOutParts(int parts) {
    metrics.fanOut(parts);
  }

  private NodeHandle chooseFor(int flags, int shard, RoutingTable current) {
    return CommandFlags.isWrite(flags)
        ? current.leader(shard)
        : current.readTarget(shard, readPolicy);
  }

  private static ShardUnavailableException unavailable(
      RoutedCommand<?, ?, ?> command, RoutingTable current) {
    int shard = command.shard();
    String reason =
        current.leader(shard) == null
            ? current.snapshot().route(shard).unavailableReason()
            : "no replica to read from under the read policy";
    return new ShardUnavailableException(shard, current.revision(), reason);
  }

  // ---- failures --------------------------------------------------------------------------------

  /** A try of a command failed: try again or fail the command. */
  void onFailure(RoutedCommand<?, ?, ?> command, CommandTry<?, ?, ?> failedTry, Throwable error) {
    if (command.hasEnded() || failedTry != command.currentTry()) {
      return;
    }
    long now = scheduler.nanoTime();
    FailureKind kind = FailureKind.of(error);
    int number = failedTry.number();
    if (kind != FailureKind.SERVER_ANSWER) {
      command.recordAttempt(number, describe(error), now);
    }
    boolean tryMayHaveRun = FailureKind.tryMayHaveRun(kind, failedTry.wasEncoded());
    if (tryMayHaveRun) {
      command.markOutcomeUnknown();
    }
    if (kind == FailureKind.SERVER_ANSWER) {
      failed(command, FailureKind.unwrap(error), now);
      return;
    }
    RoutingTable current = table;
    NodeHandle moved = null;
    if (kind == FailureKind.REDIRECT) {
      String address = FailureKind.movedAddress(error);
      moved = address == null ? null : current.nodeAt(address);
    }
    int next = number + 1;
    long backoff = retry.backoffNanos(next, ThreadLocalRandom.current().nextDouble());
    RetryVerdict verdict =
        decide(command, kind, tryMayHaveRun, number, now, backoff, moved != null, error);
    if (verdict == RetryVerdict.RETRY_ON_MOVED_NODE && moved == null) {
      verdict = RetryVerdict.RETRY_ON_NEWER_MAP;
    }
    switch (verdict) {
      case RETRY_ON_MOVED_NODE -> {
        metrics.redirect();
        command.redirect(moved);
        retryAfter(command, next, kind, 0);
      }
      case RETRY_ON_NEWER_MAP -> {
        if (current.revision() > command.revision()) {
          retryAfter(command, next, kind, 0);
        } else {
          waitForTopology(
              command,
              next,
              kind,
              Math.min(command.deadlineNanos() - now, retry.topologyWait().toNanos()));
        }
      }
      case RETRY_NOW -> retryAfter(command, next, kind, 0);
      case RETRY_AFTER_BACKOFF -> retryAfter(command, next, kind, backoff);
      case GIVE_UP -> finalFailure(command, kind, error, now);
    }
  }

  /** Asks the retry policy; one that throws or answers null gives up. */
  private RetryVerdict decide(
      RoutedCommand<?, ?, ?> command,
      FailureKind kind,
      boolean tryMayHaveRun,
      int number,
      long now,
      long backoff,
      boolean movedToKnownNode,
      Throwable error) {
    RetryVerdict verdict;
    try {
      verdict =
          retryPolicy.decide(
              new RetryContext(
                  command.commandName(),
                  CommandFlags.retryClass(command.flags()),
                  kind.failureClass(),
                  tryMayHaveRun,
                  number,
                  retry.maxAttempts(),
                  retry.acceptSecondRunReplies(),
                  Math.max(0, now - command.startNanos()),
                  command.deadlineNanos() - now,
                  backoff,
                  movedToKnownNode));
    } catch (RuntimeException e) {
      LOG.warn(
          "the retry policy {} failed on {} after {}: giving up",
          retryPolicy,
          command.commandName(),
          describe(error),
          e);
      return RetryVerdict.GIVE_UP;
    }
    return verdict == null ? RetryVerdict.GIVE_UP : verdict;
  }

  /**
   * Waits for a newer map, at most {@code maxWaitNanos}: then tries again where the map in force
   * says. The wait ends exactly once, by a newer map or by its timer, and leaves nothing behind.
   */
  private void waitForTopology(
      RoutedCommand<?, ?, ?> command, int next, FailureKind kind, long maxWaitNanos) {
    TopologyWaiters.Waiter waiter = new TopologyWaiters.Waiter(command, next, command.revision());
    if (!waiters.add(waiter)) {
      failed(
          command,
          new RetriesExhaustedException(
              command.commandName()
                  + " was not tried again: too many commands wait for a newer map already",
              command.commandName(),
              command.attempts(),
              outcomeOf(command),
              null),
          scheduler.nanoTime());
      return;
    }
    try {
      waiter.cancelTimer =
          scheduler.schedule(
              () -> {
                if (waiters.remove(waiter)) {
                  startRetry(command, next, kind);
                }
              },
              Math.max(0, maxWaitNanos));
    } catch (RejectedExecutionException e) {
      if (waiters.remove(waiter)) {
        closedBetweenTries(command, next);
      }
      return;
    }
    // A map published between the failure and the join: the publisher may have missed us.
    RoutingTable current = table;
    if (current.revision() > waiter.seenRevision && waiters.remove(waiter)) {
      wake(waiter);
    }
  }

  /**
   * A waiter leaves for a newer map: its timer is cancelled and its retry runs on the scheduler.
   */
  private void wake(TopologyWaiters.Waiter waiter) {
    Runnable cancel = waiter.cancelTimer;
    if (cancel != null) {
      cancel.run();
    }
    retryAfter(waiter.command, waiter.nextAttempt, FailureKind.REDIRECT, 0);
  }

  private void retryAfter(
      RoutedCommand<?, ?, ?> command, int next, FailureKind kind, long delayNanos) {
    try {
      if (delayNanos <= 0) {
        scheduler.execute(() -> startRetry(command, next, kind));
      } else {
        scheduler.schedule(() -> startRetry(command, next, kind), delayNanos);
      }
    } catch (RejectedExecutionException e) {
      closedBetweenTries(command, next);
    }
  }

  private <K, V, T> void startRetry(RoutedCommand<K, V, T> command, int next, FailureKind kind) {
    try {
      sendRetry(command, next, kind);
    } catch (RuntimeException e) {
      // A task of the scheduler must never end a command's life silently: it would hang.
      LOG.warn("try {} of {} failed to start", next, command.commandName(), e);
      failed(command, e, scheduler.nanoTime());
    }
  }

  private <K, V, T> void sendRetry(RoutedCommand<K, V, T> command, int next, FailureKind kind) {
    if (closed) {
      closedBetweenTries(command, next);
      return;
    }
    if (!command.claimRetry(next)) {
      return;
    }
    long now = scheduler.nanoTime();
    if (now - command.deadlineNanos() >= 0) {
      finalFailure(command, FailureKind.TIMEOUT, null, now);
      return;
    }
    metrics.retry(kind);
    sendTry(command, command.newTry(next));
  }

  /** The client closed while the command waited for try {@code next}: it fails, typed. */
  void closedBetweenTries(RoutedCommand<?, ?, ?> command, int next) {
    failed(
        command,
        new ClientClosedException(
            command.commandName()
                + " was not tried again: the client closed before try "
                + next
                + " could be sent",
            command.commandName(),
            command.attempts(),
            outcomeOf(command)),
        scheduler.nanoTime());
  }

  static Outcome outcomeOf(RoutedCommand<?, ?, ?> command) {
    return command.outcomeUnknown() ? Outcome.UNKNOWN : Outcome.NOT_RUN;
  }

  private void finalFailure(
      RoutedCommand<?, ?, ?> command, FailureKind kind, Throwable error, long now) {
    String name = command.commandName();
    Outcome outcome = outcomeOf(command);
    Throwable cause = error == null ? null : FailureKind.unwrap(error);
    CommandFailedException failure;
    if (kind == FailureKind.TIMEOUT
        || kind == FailureKind.EXPIRED_BEFORE_SEND
        || now - command.deadlineNanos() >= 0) {
      failure =
          new CommandTimeoutException(
              name
                  + " got no answer within "
                  + options.commandTimeout().toMillis()
                  + " ms"
                  + (outcome == Outcome.NOT_RUN ? "; no try of it was sent" : ""),
              name,
              command.attempts(),
              outcome,
              cause);
    } else if (kind == FailureKind.NODE_DOWN) {
      failure =
          new NodeUnavailableException(
              name
                  + " could not reach "
                  + describeTarget(command)
                  + (outcome == Outcome.UNKNOWN ? "; an earlier try may have run" : ""),
              name,
              command.attempts(),
              outcome,
              cause);
    } else if (!kind.notRun() && outcome == Outcome.UNKNOWN) {
      failure =
          new RetriesExhaustedException(
              name
                  + " may or may not have run on "
                  + describeTarget(command)
                  + " (connection lost after it was written); not sent again"
                  + whyNotSentAgain(command.flags()),
              name,
              command.attempts(),
              outcome,
              cause);
    } else {
      failure =
          new RetriesExhaustedException(
              name + " failed " + command.attempts().size() + " times",
              name,
              command.attempts(),
              outcome,
              cause);
    }
    failed(command, failure, now);
  }

  private String whyNotSentAgain(int flags) {
    if (CommandFlags.mayRetryAfterUnknownOutcome(flags, retry)) {
      return "";
    }
    return CommandFlags.isIdempotent(flags)
        ? " since a second run would answer differently (RetryOptions.acceptSecondRunReplies)"
        : " since a second run would change the data again";
  }

  private static String describeTarget(RoutedCommand<?, ?, ?> command) {
    NodeHandle node = command.target();
    String shard = command.shard() < 0 ? "" : " for shard " + command.shard();
    return node == null
        ? "shard " + command.shard()
        : "node " + node.node().id() + " (" + node.node().address() + ")" + shard;
  }

  private static String describe(Throwable error) {
    Throwable cause = FailureKind.unwrap(error);
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  // ---- the end of a command
  // ----------------------------------------------------------------------

  /** A command got its answer (its end was claimed). */
  void answered(RoutedCommand<?, ?, ?> command) {
    inFlight.decrement();
    long elapsed = scheduler.nanoTime() - command.startNanos();
    metrics.commandEnded(command.commandType(), command.target(), true, elapsed);
    tell(command, true, elapsed);
  }

  /** The caller ended the command's future itself (its end was claimed): no further try. */
  void givenUp(RoutedCommand<?, ?, ?> command) {
    inFlight.decrement();
    long elapsed = scheduler.nanoTime() - command.startNanos();
    metrics.commandEnded(command.commandType(), command.target(), false, elapsed);
    tell(command, false, elapsed);
  }

  /** A command failed for good. */
  void failed(RoutedCommand<?, ?, ?> command, Throwable error, long now) {
    if (command.markEnded()) {
      inFlight.decrement();
      long elapsed = now - command.startNanos();
      metrics.commandEnded(command.commandType(), command.target(), false, elapsed);
      tell(command, false, elapsed);
      command.failFuture(error);
    }
  }

  private void tell(RoutedCommand<?, ?, ?> command, boolean success, long elapsedNanos) {
    CommandListener listener = commandListener;
    if (listener == null) {
      return;
    }
    NodeHandle node = command.target();
    try {
      listener.commandEnded(
          new CommandEvent(
              command.commandName(),
              command.shard(),
              node == null ? null : node.node().id(),
              node == null ? null : node.node().address(),
              command.revision(),
              command.attempt(),
              success,
              Duration.ofNanos(elapsedNanos)));
    } catch (RuntimeException e) {
      LOG.warn("command listener failed", e);
    }
  }

  /** Commands sent and not yet ended. */
  public long inFlight() {
    return inFlight.sum();
  }

  /** Requests held for frozen shards now. */
  public int heldRequests() {
    return freezes.heldCount();
  }

  /**
   * Who hears of each map revision the client has drained for a migration's freeze (the client
   * registration, which writes it at once); told the last one when set.
   */
  public void drainListener(DrainListener listener) {
    freezes.listener(listener);
  }

  /** The highest map revision drained for freezes, or -1 before the first map. */
  public long drainedRevision() {
    return freezes.drainedRevision();
  }

  /** Commands waiting for a newer map now. */
  int waitingForTopology() {
    return waiters.size();
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Stops sending, fails the commands that wait for a newer map (typed, with their outcome), and
   * closes every node connection.
   */
  public CompletableFuture<Void> close() {
    accepting = false;
    closed = true;
    freezes.close();
    waiters.wakeAll(
        waiter -> {
          Runnable cancel = waiter.cancelTimer;
          if (cancel != null) {
            cancel.run();
          }
          closedBetweenTries(waiter.command, waiter.nextAttempt);
        });
    CompletableFuture<?>[] closing =
        handles.asMap().values().stream().map(NodeHandle::close).toArray(CompletableFuture[]::new);
    handles.invalidateAll();
    return CompletableFuture.allOf(closing);
  }

  /** True once the client started closing: new commands are refused. */
  public boolean isClosed() {
    return !accepting;
  }

  /** Refuses new commands; those in flight go on (retries included) until they end. */
  public void stopAccepting() {
    accepting = false;
  }

  /** Number of open node connections. */
  public int openConnections() {
    int open = 0;
    for (NodeHandle handle : handles.asMap().values()) {
      if (handle.openConnection() != null) {
        open++;
      }
    }
    return open;
  }

  /** The handle of a node in the map in force; for tests. */
  NodeHandle handleOf(String identity) {
    return handles.getIfPresent(identity);
  }
}
