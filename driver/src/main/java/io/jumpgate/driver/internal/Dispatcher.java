package io.jumpgate.driver.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.driver.ReadPolicy;
import io.jumpgate.driver.RetriesExhaustedException;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.spi.ShardUnavailableException;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.RedisCommand;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine of the driver: picks the node for each try of each command, hands it to that node's
 * Lettuce connection, and decides what happens when a try fails.
 *
 * <p>Hot path ({@link #send}): one volatile read of the routing table, array reads for the node,
 * one volatile read for its connection, Lettuce's {@code dispatch}. No lock, no allocation of its
 * own.
 *
 * <p>Failures follow the retry rules: a try the server provably did not run may be tried again
 * whatever the command; one whose fate is unknown (a timeout, a connection lost after the write)
 * only when the command is idempotent. READONLY and MOVED wait (bounded) for a newer topology
 * revision, or follow a MOVED that names a known node at once; other retriable failures back off
 * with jitter. Every wait is bounded by the retry options and the command's deadline. The topology
 * thread calls {@link #onTopologyChange}; retries run on the scheduler, never blocking a thread.
 */
public final class Dispatcher implements TopologyListener {

  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  /** Grace for a connection to a node that left the map: every command sent before has ended. */
  private final long retireGraceNanos;

  private final JumpgateOptions options;
  private final RetryOptions retry;
  private final ReadPolicy readPolicy;
  private final NodeConnector connector;
  private final ScheduledExecutorService scheduler;
  private final DriverMetrics metrics;
  private final Cache<String, NodeHandle> handles;
  private final io.jumpgate.driver.CommandListener commandListener;

  private final java.util.concurrent.atomic.LongAdder inFlight =
      new java.util.concurrent.atomic.LongAdder();

  private volatile RoutingTable table;
  private volatile CompletableFuture<RoutingTable> nextTable = new CompletableFuture<>();
  private volatile boolean accepting = true;
  private volatile boolean closed;

  public Dispatcher(
      JumpgateOptions options,
      NodeConnector connector,
      ScheduledExecutorService scheduler,
      DriverMetrics metrics) {
    this.options = options;
    this.retry = options.retry();
    this.readPolicy = options.readPolicy();
    this.connector = connector;
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.commandListener = options.commandListener().orElse(null);
    this.retireGraceNanos = options.commandTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
    this.handles =
        Caffeine.newBuilder()
            .executor(Runnable::run)
            .removalListener(
                (String identity, NodeHandle handle, RemovalCause cause) -> {
                  if (handle != null) {
                    handle.retire(retireGraceNanos, scheduler);
                  }
                })
            .build();
  }

  // ---- topology --------------------------------------------------------------------------------

  /** Builds the routing table of a new snapshot; called on the topology thread. */
  @Override
  public void onTopologyChange(TopologySnapshot previous, TopologySnapshot current) {
    RoutingTable next =
        new RoutingTable(
            current,
            node -> handles.get(NodeHandle.identityOf(node), id -> new NodeHandle(node, connector)),
            options.zone().orElse(null));
    table = next;
    Set<String> inUse = new HashSet<>();
    for (NodeHandle handle : next.allNodes()) {
      inUse.add(handle.identity());
    }
    for (String identity : Set.copyOf(handles.asMap().keySet())) {
      if (!inUse.contains(identity)) {
        handles.invalidate(identity);
      }
    }
    CompletableFuture<RoutingTable> waiting = nextTable;
    nextTable = new CompletableFuture<>();
    waiting.complete(next);
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
      command.fail(new IllegalStateException("the Jumpgate client is closed"));
      return command;
    }
    inFlight.increment();
    sendTry(command, command, 1);
    return command;
  }

  private <K, V, T> void sendTry(
      RoutedCommand<K, V, T> command, CommandTry<K, V, T> attempt, int number) {
    RoutingTable current = table;
    NodeHandle node = command.takeRedirect();
    if (node == null) {
      node = chooseNode(command, current);
      if (node == null && command.groupShards() != null) {
        // the shards of this fan-out part are no longer served by one node: split again
        failed(command, new RegroupNeededException(), System.nanoTime());
        return;
      }
      if (node == null) {
        if (!attempt.tryEnded()) {
          // no route: the shard has no valid assignment (or no replica for REPLICA reads)
          ShardUnavailableException unavailable = unavailable(command, current);
          command.recordAttempt(number, unavailable.getMessage(), System.nanoTime());
          failed(command, unavailable, System.nanoTime());
        }
        return;
      }
    }
    command.target(node, current.revision());
    StatefulRedisConnection<byte[], byte[]> connection = node.openConnection();
    if (connection != null) {
      dispatch(connection, attempt);
      return;
    }
    // The connection is still being made (bounded by the connect timeout): the try must not wait
    // for it past the command's deadline. The command was not sent, but may be once the
    // connection opens, so an expired wait counts as a timeout (outcome unknown).
    NodeHandle target = node;
    long left = command.deadlineNanos() - System.nanoTime();
    if (left <= 0) {
      attempt.failTry(connectionWaitExpired(target));
      return;
    }
    ScheduledFuture<?> expiry =
        scheduler.schedule(
            () -> attempt.failTry(connectionWaitExpired(target)), left, TimeUnit.NANOSECONDS);
    target
        .connection()
        .whenComplete(
            (opened, error) -> {
              expiry.cancel(false);
              if (error != null) {
                attempt.failTry(error);
              } else if (!attempt.tryEnded()) {
                dispatch(opened, attempt);
              }
            });
  }

  private static RedisCommandTimeoutException connectionWaitExpired(NodeHandle node) {
    return new RedisCommandTimeoutException(
        "the connection to "
            + node.node().address()
            + " was not ready within the command's deadline");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void dispatch(
      StatefulRedisConnection<byte[], byte[]> connection, CommandTry<?, ?, ?> attempt) {
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
    int[] group = command.groupShards();
    if (group != null) {
      if (command.attempt() == 1) {
        return command.firstNode();
      }
      // A retry goes to the leader, which holds every key of the part under any read policy.
      NodeHandle shared = current.leader(group[0]);
      for (int index = 1; index < group.length && shared != null; index++) {
        if (current.leader(group[index]) != shared) {
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
  public io.jumpgate.driver.FanOutGrouping fanOutGrouping() {
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
  void onFailure(RoutedCommand<?, ?, ?> command, int number, Throwable error) {
    if (command.isDone() || number != command.attempt()) {
      return;
    }
    long now = System.nanoTime();
    FailureKind kind = FailureKind.of(error);
    if (kind == FailureKind.SERVER_ANSWER) {
      failed(command, FailureKind.unwrap(error), now);
      return;
    }
    command.recordAttempt(number, describe(error), now);
    if (!kind.provablyNotRun()) {
      command.markMayHaveRun();
    }
    boolean idempotent = CommandFlags.mayRetryAfterUnknownOutcome(command.flags(), retry);
    if (!kind.provablyNotRun() && !idempotent) {
      finalFailure(command, kind, error, now);
      return;
    }
    if (number >= retry.maxAttempts() || now >= command.deadlineNanos()) {
      finalFailure(command, kind, error, now);
      return;
    }
    int next = number + 1;
    long remaining = command.deadlineNanos() - now;
    if (kind == FailureKind.REDIRECT) {
      String moved = FailureKind.movedAddress(error);
      RoutingTable current = table;
      NodeHandle named = moved == null ? null : current.nodeAt(moved);
      if (named != null) {
        metrics.redirect();
        command.redirect(named);
        retryNow(command, next, kind);
        return;
      }
      if (current.revision() > command.revision()) {
        retryNow(command, next, kind);
        return;
      }
      waitForTopology(command, next, kind, Math.min(remaining, retry.topologyWait().toNanos()));
      return;
    }
    long backoff = retry.backoffNanos(next, ThreadLocalRandom.current().nextDouble());
    if (backoff >= remaining) {
      finalFailure(command, kind, error, now);
      return;
    }
    schedule(command, next, kind, backoff);
  }

  private void retryNow(RoutedCommand<?, ?, ?> command, int next, FailureKind kind) {
    schedule(command, next, kind, 0);
  }

  private void waitForTopology(
      RoutedCommand<?, ?, ?> command, int next, FailureKind kind, long maxWaitNanos) {
    nextTable.thenRun(() -> startRetry(command, next, kind));
    schedule(command, next, kind, maxWaitNanos);
  }

  private void schedule(
      RoutedCommand<?, ?, ?> command, int next, FailureKind kind, long delayNanos) {
    if (delayNanos <= 0) {
      scheduler.execute(() -> startRetry(command, next, kind));
    } else {
      scheduler.schedule(() -> startRetry(command, next, kind), delayNanos, TimeUnit.NANOSECONDS);
    }
  }

  private <K, V, T> void startRetry(RoutedCommand<K, V, T> command, int next, FailureKind kind) {
    if (closed) {
      failed(
          command, new IllegalStateException("the Jumpgate client is closed"), System.nanoTime());
      return;
    }
    if (!command.claimRetry(next)) {
      return;
    }
    if (System.nanoTime() >= command.deadlineNanos()) {
      finalFailure(command, FailureKind.TIMEOUT, null, System.nanoTime());
      return;
    }
    metrics.retry(kind);
    sendTry(command, command.newAttempt(next), next);
  }

  private void finalFailure(
      RoutedCommand<?, ?, ?> command, FailureKind kind, Throwable error, long now) {
    String name = command.commandName();
    boolean neverRun = !command.mayHaveRun() && kind.provablyNotRun();
    CommandFailedException failure;
    Throwable cause = error == null ? null : FailureKind.unwrap(error);
    if (kind == FailureKind.TIMEOUT || now >= command.deadlineNanos()) {
      failure =
          new CommandTimeoutException(
              name + " got no answer within " + options.commandTimeout().toMillis() + " ms",
              name,
              command.attempts(),
              io.jumpgate.driver.Outcome.UNKNOWN,
              cause);
    } else if (kind == FailureKind.NODE_DOWN) {
      failure =
          new NodeUnavailableException(
              name + " could not reach " + describeTarget(command),
              name,
              command.attempts(),
              io.jumpgate.driver.Outcome.NOT_RUN,
              cause);
    } else if (!kind.provablyNotRun()) {
      failure =
          new RetriesExhaustedException(
              name
                  + " may or may not have run on "
                  + describeTarget(command)
                  + " (connection lost after it was written); not sent again"
                  + (CommandFlags.isIdempotent(command.flags())
                      ? ""
                      : " since it is not idempotent"),
              name,
              command.attempts(),
              io.jumpgate.driver.Outcome.UNKNOWN,
              cause);
    } else {
      failure =
          new RetriesExhaustedException(
              name + " failed " + command.attempts().size() + " times",
              name,
              command.attempts(),
              neverRun ? io.jumpgate.driver.Outcome.NOT_RUN : io.jumpgate.driver.Outcome.UNKNOWN,
              cause);
    }
    failed(command, failure, now);
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

  /** A command got its answer. */
  void answered(RoutedCommand<?, ?, ?> command) {
    inFlight.decrement();
    long elapsed = System.nanoTime() - command.startNanos();
    metrics.commandEnded(command.commandType(), command.target(), true, elapsed);
    tell(command, true, elapsed);
  }

  /** A command failed for good. */
  void failed(RoutedCommand<?, ?, ?> command, Throwable error, long now) {
    if (command.markEnded()) {
      inFlight.decrement();
      long elapsed = now - command.startNanos();
      metrics.commandEnded(command.commandType(), command.target(), false, elapsed);
      tell(command, false, elapsed);
      command.fail(error);
    }
  }

  private void tell(RoutedCommand<?, ?, ?> command, boolean success, long elapsedNanos) {
    io.jumpgate.driver.CommandListener listener = commandListener;
    if (listener == null) {
      return;
    }
    NodeHandle node = command.target();
    try {
      listener.commandEnded(
          new io.jumpgate.driver.CommandEvent(
              command.commandName(),
              command.shard(),
              node == null ? null : node.node().id(),
              node == null ? null : node.node().address(),
              command.revision(),
              command.attempt(),
              success,
              java.time.Duration.ofNanos(elapsedNanos)));
    } catch (RuntimeException e) {
      LOG.warn("command listener failed", e);
    }
  }

  /** Commands sent and not yet ended. */
  public long inFlight() {
    return inFlight.sum();
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Stops sending and closes every node connection. */
  public CompletableFuture<Void> close() {
    accepting = false;
    closed = true;
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
}
