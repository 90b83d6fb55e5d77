package io.jumpgate.spring.internal;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySourceStatus;
import io.jumpgate.spring.JumpgateProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The health of one Jumpgate client, independent of Spring Boot's health API: DOWN when no valid
 * topology is loaded, when the topology is older than a threshold, or when a shard has no reachable
 * leader; UP otherwise, with the revision, the topology's age and the shard count.
 *
 * <p>Reachability is a PING to every node of the map (the driver's broadcast PING), at most one
 * round per {@code pingInterval} however often health is asked, so that frequent health checks do
 * not load the nodes. While a new round is in flight, a check answers from the last round that
 * ended (the new one ends within the driver's command timeout); only when no round ended yet does
 * it wait, at most {@code pingTimeout}, and it is DOWN if that passes. A shard whose leader did not
 * answer makes the check DOWN; a replica that did not answer is reported, and the check stays UP
 * (writes and leader reads are served).
 *
 * <p>Thread-safe: checks may run concurrently; they share the PING round in flight.
 */
public final class HealthCheck {

  /** The outcome of one check: UP or DOWN, and the details to show (DOWN: with a reason). */
  public record Result(boolean up, Map<String, Object> details) {
    public Result {
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** Why the check is DOWN, or null when UP. */
    public String reason() {
      return (String) details.get("reason");
    }
  }

  /** Settings of the check. */
  public record Settings(
      Duration maxTopologyAge, boolean checkLeaders, Duration pingTimeout, Duration pingInterval) {
    public Settings {
      Objects.requireNonNull(maxTopologyAge, "maxTopologyAge");
      Objects.requireNonNull(pingTimeout, "pingTimeout");
      Objects.requireNonNull(pingInterval, "pingInterval");
    }

    /** The settings of the {@code jumpgate.health.*} properties. */
    public static Settings from(JumpgateProperties.Health health) {
      return new Settings(
          health.getMaxTopologyAge(),
          health.isCheckLeaders(),
          health.getPingTimeout(),
          health.getPingInterval());
    }
  }

  /** One PING round: when it started, and its answers (node id -> PONG) or failure. */
  private record Round(Instant startedAt, CompletableFuture<Map<String, String>> answers) {}

  private final String source;
  private final Supplier<TopologySourceStatus> status;
  private final Supplier<TopologySnapshot> topology;
  private final Supplier<CompletionStage<Map<String, String>>> ping;
  private final Settings settings;
  private final Clock clock;
  private final AtomicReference<Round> lastRound = new AtomicReference<>();
  private final AtomicReference<Round> lastCompleted = new AtomicReference<>();

  /**
   * @param source what the topology comes from, for the details (e.g. {@code etcd [...] cluster
   *     'prod'})
   * @param status the topology source's status
   * @param topology the snapshot in force
   * @param ping a PING to every node: node id -> PONG, or fails with {@link
   *     BroadcastFailedException} naming the nodes that did not answer
   */
  public HealthCheck(
      String source,
      Supplier<TopologySourceStatus> status,
      Supplier<TopologySnapshot> topology,
      Supplier<CompletionStage<Map<String, String>>> ping,
      Settings settings,
      Clock clock) {
    this.source = Objects.requireNonNull(source, "source");
    this.status = Objects.requireNonNull(status, "status");
    this.topology = Objects.requireNonNull(topology, "topology");
    this.ping = Objects.requireNonNull(ping, "ping");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The check of a client: its topology source, its snapshot and its broadcast PING. */
  public static HealthCheck of(JumpgateClient client, Settings settings, Clock clock) {
    var commands = client.connect().async();
    return new HealthCheck(
        client.options().topologyDescription(),
        client::topologyStatus,
        client::topology,
        commands::ping,
        settings,
        clock);
  }

  /** Checks now; blocks at most the ping timeout. */
  public Result check() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("source", source);
    TopologySourceStatus sourceStatus;
    TopologySnapshot snapshot;
    try {
      sourceStatus = status.get();
      snapshot = topology.get();
    } catch (RuntimeException e) {
      return down(details, "no valid topology is loaded: " + e);
    }
    sourceStatus.lastErrorIfAny().ifPresent(error -> details.put("lastError", error));
    if (snapshot == null || sourceStatus.revision() < 0) {
      return down(details, "no valid topology is loaded");
    }
    Duration age = sourceStatus.ageAt(clock.instant());
    details.put("cluster", snapshot.cluster());
    details.put("revision", snapshot.revision());
    details.put("topologyAge", age.toString());
    details.put("connected", sourceStatus.connected());
    details.put("shards", snapshot.shardCount());
    details.put("nodes", snapshot.nodes().size());
    if (!snapshot.invalidEntries().isEmpty()) {
      details.put("invalidEntries", snapshot.invalidEntries().size());
    }
    if (age.compareTo(settings.maxTopologyAge()) > 0) {
      return down(
          details,
          "the topology was last confirmed "
              + age.toMillis()
              + " ms ago, longer than jumpgate.health.max-topology-age ("
              + settings.maxTopologyAge().toMillis()
              + " ms)"
              + (sourceStatus.connected() ? "" : ": the source is not in contact with its store"));
    }
    int unavailable = snapshot.unavailableShardCount();
    if (unavailable > 0) {
      details.put("shardsWithoutLeader", unavailable);
      return down(
          details,
          unavailable + " of " + snapshot.shardCount() + " shards have no leader in the topology");
    }
    if (!settings.checkLeaders()) {
      return new Result(true, details);
    }
    return checkReachability(snapshot, details);
  }

  private Result checkReachability(TopologySnapshot snapshot, Map<String, Object> details) {
    Round round = currentRound();
    Round completed = lastCompleted.get();
    if (!round.answers().isDone() && completed != null) {
      // a new round is on its way (it ends within the command timeout): the last answers stand
      round = completed;
    }
    Map<String, Throwable> failures;
    try {
      Duration waited = Duration.between(round.startedAt(), clock.instant());
      long remaining = Math.max(1, settings.pingTimeout().minus(waited).toNanos());
      round.answers().get(remaining, TimeUnit.NANOSECONDS);
      failures = Map.of();
    } catch (TimeoutException e) {
      return down(
          details,
          "the nodes did not answer PING within jumpgate.health.ping-timeout ("
              + settings.pingTimeout().toMillis()
              + " ms)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return down(details, "interrupted while waiting for PING");
    } catch (ExecutionException e) {
      Throwable cause = unwrap(e.getCause());
      if (!(cause instanceof BroadcastFailedException broadcast)) {
        return down(details, "PING failed: " + cause);
      }
      failures = broadcast.failures();
    }
    return leadersVerdict(snapshot, failures, details);
  }

  private Result leadersVerdict(
      TopologySnapshot snapshot, Map<String, Throwable> failures, Map<String, Object> details) {
    Map<String, Node> leaders = new TreeMap<>();
    Map<String, Integer> shardsLedBy = new TreeMap<>();
    for (ShardRoute route : snapshot.routes()) {
      if (route.isAvailable()) {
        leaders.put(route.leader().id(), route.leader());
        shardsLedBy.merge(route.leader().id(), 1, Integer::sum);
      }
    }
    details.put("leaders", leaders.size());
    Map<String, String> unreachableLeaders = new TreeMap<>();
    List<String> unreachableReplicas = new ArrayList<>();
    int shardsDown = 0;
    for (Map.Entry<String, Throwable> failure : new TreeMap<>(failures).entrySet()) {
      String nodeId = failure.getKey();
      Node leader = leaders.get(nodeId);
      if (leader != null) {
        unreachableLeaders.put(
            nodeId, leader.address() + ": " + failure.getValue().getClass().getSimpleName());
        shardsDown += shardsLedBy.get(nodeId);
      } else {
        unreachableReplicas.add(nodeId);
      }
    }
    if (!unreachableReplicas.isEmpty()) {
      details.put("unreachableReplicas", unreachableReplicas);
    }
    if (unreachableLeaders.isEmpty()) {
      return new Result(true, details);
    }
    details.put("unreachableLeaders", unreachableLeaders);
    details.put("shardsWithoutReachableLeader", shardsDown);
    return down(
        details,
        shardsDown
            + " of "
            + snapshot.shardCount()
            + " shards have no reachable leader: "
            + String.join(", ", new TreeSet<>(unreachableLeaders.keySet()))
            + " did not answer PING");
  }

  /** The round to wait for: the last one while in flight or fresh, else a new one. */
  private Round currentRound() {
    while (true) {
      Round last = lastRound.get();
      Instant now = clock.instant();
      if (last != null
          && (!last.answers().isDone()
              || now.isBefore(last.startedAt().plus(settings.pingInterval())))) {
        return last;
      }
      Round next = new Round(now, new CompletableFuture<>());
      if (lastRound.compareAndSet(last, next)) {
        startPing(next);
        return next;
      }
    }
  }

  private void startPing(Round round) {
    CompletableFuture<Map<String, String>> answers = round.answers();
    try {
      ping.get()
          .whenComplete(
              (result, error) -> {
                if (error != null) {
                  answers.completeExceptionally(unwrap(error));
                } else {
                  answers.complete(result);
                }
                lastCompleted.set(round);
              });
    } catch (RuntimeException e) {
      answers.completeExceptionally(e);
      lastCompleted.set(round);
    }
  }

  private static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static Result down(Map<String, Object> details, String reason) {
    Map<String, Object> withReason = new LinkedHashMap<>();
    withReason.put("reason", reason);
    withReason.putAll(details);
    return new Result(false, withReason);
  }
}
