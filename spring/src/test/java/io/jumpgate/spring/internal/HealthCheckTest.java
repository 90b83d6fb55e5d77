package io.jumpgate.spring.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySourceStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The health verdicts: topology validity and age, shards without a leader, unreachable nodes. */
class HealthCheckTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Node LEADER_0 = Node.of("leader-0", "127.0.0.1", 7000);
  private static final Node LEADER_1 = Node.of("leader-1", "127.0.0.1", 7001);
  private static final Node REPLICA_0 = Node.of("replica-0", "127.0.0.1", 7002);

  private final MutableClock clock = new MutableClock(START);
  private final HealthCheck.Settings settings =
      new HealthCheck.Settings(
          Duration.ofSeconds(30), true, Duration.ofMillis(200), Duration.ofSeconds(5));

  /** 4 shards: even ones led by leader-0 (replicated by replica-0), odd ones by leader-1. */
  private static TopologySnapshot snapshot(long revision) {
    ShardRoute[] routes = new ShardRoute[4];
    for (int shard = 0; shard < 4; shard++) {
      routes[shard] =
          shard % 2 == 0
              ? ShardRoute.of(shard, LEADER_0, List.of(REPLICA_0), 1, ShardState.ACTIVE, 0)
              : ShardRoute.of(shard, LEADER_1, List.of(), 1, ShardState.ACTIVE, 0);
    }
    return TopologySnapshot.create(
        "prod",
        revision,
        TopologyMetadata.of(4),
        Map.of("leader-0", LEADER_0, "leader-1", LEADER_1, "replica-0", REPLICA_0),
        routes,
        List.of(),
        START);
  }

  private static TopologySourceStatus confirmedAt(Instant at) {
    return new TopologySourceStatus(true, 42, at, null);
  }

  private HealthCheck check(
      TopologySourceStatus status,
      TopologySnapshot snapshot,
      Supplier<CompletionStage<Map<String, String>>> ping) {
    return new HealthCheck(
        "etcd http://127.0.0.1:2379 cluster 'prod'",
        () -> status,
        () -> snapshot,
        ping,
        settings,
        clock);
  }

  private static Supplier<CompletionStage<Map<String, String>>> allAnswer() {
    return () ->
        CompletableFuture.completedFuture(
            Map.of("leader-0", "PONG", "leader-1", "PONG", "replica-0", "PONG"));
  }

  private static Supplier<CompletionStage<Map<String, String>>> failing(String... nodes) {
    return () -> {
      Map<String, Throwable> failures = new java.util.TreeMap<>();
      for (String node : nodes) {
        failures.put(
            node,
            new NodeUnavailableException(
                "PING could not reach " + node,
                "PING",
                List.of(),
                io.jumpgate.driver.Outcome.NOT_RUN,
                null));
      }
      return CompletableFuture.failedFuture(
          new BroadcastFailedException("PING failed", "PING", failures, Map.of()));
    };
  }

  @Test
  void should_be_up_with_revision_age_and_shard_count_when_every_leader_answers() {
    clock.set(START.plusSeconds(3));
    HealthCheck.Result result = check(confirmedAt(START), snapshot(42), allAnswer()).check();
    assertThat(result.up()).isTrue();
    assertThat(result.details())
        .containsEntry("revision", 42L)
        .containsEntry("topologyAge", "PT3S")
        .containsEntry("shards", 4)
        .containsEntry("nodes", 3)
        .containsEntry("leaders", 2)
        .containsEntry("cluster", "prod")
        .containsEntry("connected", true)
        .containsEntry("source", "etcd http://127.0.0.1:2379 cluster 'prod'")
        .doesNotContainKey("reason");
  }

  @Test
  void should_be_down_when_no_valid_topology_is_loaded() {
    HealthCheck.Result result =
        check(new TopologySourceStatus(false, -1, null, "etcd unreachable"), null, allAnswer())
            .check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason()).isEqualTo("no valid topology is loaded");
    assertThat(result.details()).containsEntry("lastError", "etcd unreachable");
  }

  @Test
  void should_be_down_when_the_topology_is_older_than_the_threshold() {
    clock.set(START.plusSeconds(31));
    HealthCheck.Result result =
        check(
                new TopologySourceStatus(false, 42, START, "UNAVAILABLE: io exception"),
                snapshot(42),
                allAnswer())
            .check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason())
        .contains("last confirmed 31000 ms ago")
        .contains("jumpgate.health.max-topology-age (30000 ms)")
        .contains("not in contact");
    assertThat(result.details())
        .containsEntry("topologyAge", "PT31S")
        .containsEntry("lastError", "UNAVAILABLE: io exception");
  }

  @Test
  void should_be_down_when_a_shard_has_no_leader_in_the_topology() {
    ShardRoute[] routes = {
      ShardRoute.of(0, LEADER_0, List.of(), 1, ShardState.ACTIVE, 0),
      ShardRoute.unavailable(1, "\"leader\" is required")
    };
    TopologySnapshot snapshot =
        TopologySnapshot.create(
            "prod",
            9,
            TopologyMetadata.of(2),
            Map.of("leader-0", LEADER_0),
            routes,
            List.of(),
            START);
    HealthCheck.Result result = check(confirmedAt(START), snapshot, allAnswer()).check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason()).isEqualTo("1 of 2 shards have no leader in the topology");
  }

  @Test
  void should_be_down_naming_the_leaders_that_did_not_answer() {
    HealthCheck.Result result =
        check(confirmedAt(START), snapshot(42), failing("leader-1", "replica-0")).check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason())
        .isEqualTo("2 of 4 shards have no reachable leader: leader-1 did not answer PING");
    assertThat(result.details())
        .containsEntry(
            "unreachableLeaders", Map.of("leader-1", "127.0.0.1:7001: NodeUnavailableException"))
        .containsEntry("shardsWithoutReachableLeader", 2)
        .containsEntry("unreachableReplicas", List.of("replica-0"));
  }

  @Test
  void should_stay_up_when_only_a_replica_does_not_answer() {
    HealthCheck.Result result =
        check(confirmedAt(START), snapshot(42), failing("replica-0")).check();
    assertThat(result.up()).isTrue();
    assertThat(result.details()).containsEntry("unreachableReplicas", List.of("replica-0"));
  }

  @Test
  void should_be_down_when_the_nodes_do_not_answer_within_the_ping_timeout() {
    HealthCheck.Result result =
        check(confirmedAt(START), snapshot(42), CompletableFuture::new).check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason())
        .isEqualTo("the nodes did not answer PING within jumpgate.health.ping-timeout (200 ms)");
  }

  @Test
  void should_be_down_when_the_ping_cannot_be_sent() {
    HealthCheck.Result result =
        check(
                confirmedAt(START),
                snapshot(42),
                () -> {
                  throw new IllegalStateException("the Jumpgate client is closed");
                })
            .check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason()).contains("the Jumpgate client is closed");
  }

  @Test
  void should_ping_at_most_once_per_interval_however_often_health_is_asked() {
    AtomicInteger pings = new AtomicInteger();
    HealthCheck check =
        check(
            confirmedAt(START),
            snapshot(42),
            () -> {
              pings.incrementAndGet();
              return allAnswer().get();
            });
    for (int call = 0; call < 10; call++) {
      assertThat(check.check().up()).isTrue();
    }
    assertThat(pings).hasValue(1);
    clock.set(START.plusSeconds(5));
    assertThat(check.check().up()).isTrue();
    assertThat(pings).hasValue(2);
  }

  @Test
  void should_share_the_round_in_flight_instead_of_sending_another() {
    AtomicInteger pings = new AtomicInteger();
    CompletableFuture<Map<String, String>> answers = new CompletableFuture<>();
    HealthCheck check =
        new HealthCheck(
            "file",
            () -> confirmedAt(clock.instant()),
            () -> snapshot(42),
            () -> {
              pings.incrementAndGet();
              return answers;
            },
            settings,
            clock);
    assertThat(check.check().up()).as("no answer within the ping timeout").isFalse();
    clock.set(START.plusSeconds(60)); // long after the interval, but the round is still in flight
    assertThat(check.check().up()).isFalse();
    assertThat(pings).hasValue(1);
    answers.complete(Map.of("leader-0", "PONG", "leader-1", "PONG", "replica-0", "PONG"));
    // the round ended long ago: a new one starts (the same answers here)
    assertThat(check.check().up()).isTrue();
    assertThat(pings).hasValue(2);
  }

  @Test
  void should_answer_from_the_last_round_while_a_new_one_is_in_flight() {
    AtomicInteger pings = new AtomicInteger();
    CompletableFuture<Map<String, String>> second = new CompletableFuture<>();
    HealthCheck check =
        new HealthCheck(
            "file",
            () -> confirmedAt(clock.instant()),
            () -> snapshot(42),
            () ->
                pings.incrementAndGet() == 1
                    ? CompletableFuture.completedFuture(
                        Map.of("leader-0", "PONG", "leader-1", "PONG", "replica-0", "PONG"))
                    : second,
            settings,
            clock);
    assertThat(check.check().up()).isTrue();
    clock.set(START.plusSeconds(6));
    // a second round starts and is in flight: the first one's answers stand, without waiting
    assertThat(check.check().up()).isTrue();
    assertThat(pings).hasValue(2);
    second.completeExceptionally(
        new BroadcastFailedException(
            "PING failed",
            "PING",
            Map.of(
                "leader-0",
                new NodeUnavailableException(
                    "down", "PING", List.of(), io.jumpgate.driver.Outcome.NOT_RUN, null)),
            Map.of()));
    HealthCheck.Result result = check.check();
    assertThat(result.up()).isFalse();
    assertThat(result.reason()).contains("leader-0 did not answer PING");
    assertThat(pings).hasValue(2);
  }

  @Test
  void should_skip_the_ping_when_leaders_are_not_checked() {
    HealthCheck check =
        new HealthCheck(
            "file",
            () -> confirmedAt(START),
            () -> snapshot(42),
            failing("leader-0"),
            new HealthCheck.Settings(
                Duration.ofSeconds(30), false, Duration.ofMillis(200), Duration.ofSeconds(5)),
            clock);
    assertThat(check.check().up()).isTrue();
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void set(Instant instant) {
      this.now = instant;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
