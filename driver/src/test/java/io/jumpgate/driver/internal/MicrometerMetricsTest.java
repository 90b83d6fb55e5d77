package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The Micrometer binding against a {@link SimpleMeterRegistry}. */
class MicrometerMetricsTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final FakeSource source = new FakeSource();

  private DriverMetrics metrics(String client) {
    return MicrometerMetrics.create(registry, "prod", client, source, CLOCK);
  }

  @Test
  void should_time_commands_by_type_and_outcome_with_the_cluster_tag() {
    DriverMetrics metrics = metrics(null);
    metrics.commandEnded(CommandType.GET, null, true, TimeUnit.MILLISECONDS.toNanos(2));
    metrics.commandEnded(CommandType.GET, null, true, TimeUnit.MILLISECONDS.toNanos(4));
    metrics.commandEnded(CommandType.GET, null, false, TimeUnit.MILLISECONDS.toNanos(8));
    metrics.commandEnded(CommandType.SET, null, true, TimeUnit.MILLISECONDS.toNanos(1));

    var getSuccess =
        registry
            .get(MicrometerMetrics.COMMANDS)
            .tags("cluster", "prod", "command", "GET", "outcome", "success")
            .timer();
    assertThat(getSuccess.count()).isEqualTo(2);
    assertThat(getSuccess.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(6.0);
    assertThat(
            registry
                .get(MicrometerMetrics.COMMANDS)
                .tags("command", "GET", "outcome", "failure")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get(MicrometerMetrics.COMMANDS)
                .tags("command", "SET", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
    // no client tag unless one is given
    assertThat(getSuccess.getId().getTag("client")).isNull();
  }

  @Test
  void should_tag_every_meter_with_the_client_when_one_is_given() {
    DriverMetrics metrics = metrics("app-1");
    metrics.commandEnded(CommandType.GET, null, true, 1);
    metrics.connectionCount(() -> 0);
    assertThat(registry.getMeters()).isNotEmpty();
    for (Meter meter : registry.getMeters()) {
      assertThat(meter.getId().getTags())
          .as(meter.getId().toString())
          .contains(Tag.of("cluster", "prod"), Tag.of("client", "app-1"));
    }
  }

  @Test
  void should_time_commands_by_the_node_of_their_last_try() {
    DriverMetrics metrics = metrics(null);
    metrics.commandEnded(CommandType.GET, handle(Node.of("node-a", "10.0.0.1", 6379)), true, 1_000);
    metrics.commandEnded(
        CommandType.SET, handle(Node.of("node-a", "10.0.0.1", 6379)), false, 1_000);
    metrics.commandEnded(CommandType.GET, handle(Node.of("node-b", "10.0.0.2", 6379)), true, 1_000);
    assertThat(
            registry
                .get(MicrometerMetrics.NODE_COMMANDS)
                .tags("node", "node-a", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get(MicrometerMetrics.NODE_COMMANDS)
                .tags("node", "node-a", "outcome", "failure")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get(MicrometerMetrics.NODE_COMMANDS)
                .tags("node", "node-b", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
  }

  @Test
  void should_withdraw_the_node_timers_of_nodes_that_left_the_topology() {
    DriverMetrics metrics = metrics(null);
    Node a = Node.of("node-a", "10.0.0.1", 6379);
    Node b = Node.of("node-b", "10.0.0.2", 6379);
    Node c = Node.of("node-c", "10.0.0.3", 6379);
    metrics.topologyApplied(snapshot(10, List.of(a, b, c), List.of(a, b)));
    metrics.commandEnded(CommandType.GET, handle(a), true, 1);
    metrics.commandEnded(CommandType.GET, handle(b), true, 1);
    metrics.commandEnded(CommandType.GET, handle(c), true, 1);
    // c leaves; b leaves the node table but still leads a shard (kept until an admin fixes it)
    metrics.topologyApplied(snapshot(11, List.of(a), List.of(a, b)));
    assertThat(nodesWithTimers()).containsExactlyInAnyOrder("node-a", "node-b");
  }

  private List<String> nodesWithTimers() {
    return registry.find(MicrometerMetrics.NODE_COMMANDS).timers().stream()
        .map(timer -> timer.getId().getTag("node"))
        .distinct()
        .toList();
  }

  @Test
  void should_give_each_other_keyword_a_timer_up_to_a_bound_then_share_one() {
    DriverMetrics metrics = metrics(null);
    for (int index = 0; index < 300; index++) {
      metrics.commandEnded(keyword("X.CMD" + index), null, true, 1);
    }
    metrics.commandEnded(keyword("X.CMD0"), null, true, 1);
    long tagged =
        registry.find(MicrometerMetrics.COMMANDS).tag("outcome", "success").timers().stream()
            .map(timer -> timer.getId().getTag("command"))
            .distinct()
            .count();
    assertThat(tagged).isEqualTo(257); // 256 keywords + OTHER
    assertThat(
            registry
                .get(MicrometerMetrics.COMMANDS)
                .tags("command", "OTHER", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(300 - 256);
  }

  @Test
  void should_count_retries_by_reason_redirects_and_fan_outs() {
    DriverMetrics metrics = metrics(null);
    metrics.retry(FailureKind.REDIRECT);
    metrics.retry(FailureKind.REDIRECT);
    metrics.retry(FailureKind.NODE_DOWN);
    metrics.redirect();
    metrics.fanOut(3);
    metrics.fanOut(5);
    assertThat(registry.get(MicrometerMetrics.RETRIES).tag("reason", "redirect").counter().count())
        .isEqualTo(2);
    assertThat(registry.get(MicrometerMetrics.RETRIES).tag("reason", "node_down").counter().count())
        .isEqualTo(1);
    assertThat(registry.get(MicrometerMetrics.RETRIES).tag("reason", "timeout").counter().count())
        .isZero();
    assertThat(registry.get(MicrometerMetrics.REDIRECTS).counter().count()).isEqualTo(1);
    var fanOut = registry.get(MicrometerMetrics.FANOUT_NODES).summary();
    assertThat(fanOut.count()).isEqualTo(2);
    assertThat(fanOut.totalAmount()).isEqualTo(8);
    assertThat(fanOut.max()).isEqualTo(5);
  }

  @Test
  void should_follow_the_topology_its_age_and_the_open_connections() {
    DriverMetrics metrics = metrics(null);
    AtomicInteger open = new AtomicInteger();
    metrics.connectionCount(open::get);
    assertThat(gauge(MicrometerMetrics.TOPOLOGY_REVISION)).isEqualTo(-1);
    Node a = Node.of("node-a", "10.0.0.1", 6379);
    metrics.topologyApplied(snapshot(41, List.of(a), List.of(a)));
    metrics.topologyApplied(
        snapshot(
            42,
            List.of(a),
            List.of(a),
            List.of(new InvalidEntry("/jumpgate/prod/shards/0009", "bad", 42))));
    source.status = new TopologySourceStatus(true, 42, NOW.minusMillis(2500), null);
    open.set(3);
    assertThat(gauge(MicrometerMetrics.TOPOLOGY_REVISION)).isEqualTo(42);
    assertThat(gauge(MicrometerMetrics.TOPOLOGY_INVALID)).isEqualTo(1);
    assertThat(gauge(MicrometerMetrics.TOPOLOGY_AGE)).isEqualTo(2.5);
    assertThat(gauge(MicrometerMetrics.CONNECTIONS)).isEqualTo(3);
    assertThat(registry.get(MicrometerMetrics.TOPOLOGY_UPDATES).counter().count()).isEqualTo(2);
  }

  private double gauge(String name) {
    return registry.get(name).tag("cluster", "prod").gauge().value();
  }

  @Test
  void should_withdraw_every_meter_on_close_and_not_register_any_after() {
    DriverMetrics metrics = metrics("app-1");
    metrics.connectionCount(() -> 1);
    metrics.commandEnded(CommandType.GET, handle(Node.of("n", "h", 1)), true, 1);
    metrics.commandEnded(keyword("X.ONE"), null, true, 1);
    assertThat(registry.getMeters()).hasSizeGreaterThan(10);
    metrics.close();
    assertThat(registry.getMeters()).isEmpty();
    metrics.commandEnded(CommandType.GET, handle(Node.of("n", "h", 1)), true, 1);
    metrics.commandEnded(CommandType.DEL, null, true, 1);
    metrics.retry(FailureKind.NOT_RUN);
    metrics.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void should_refuse_an_object_that_is_not_a_meter_registry() {
    assertThatThrownBy(() -> MicrometerMetrics.create("registry", "prod", null, source, CLOCK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String");
  }

  @Test
  void should_not_allocate_when_recording_on_meters_that_exist() {
    DriverMetrics metrics = metrics(null);
    var node = handle(Node.of("node-a", "10.0.0.1", 6379));
    ProtocolKeyword custom = keyword("X.CUSTOM");
    Runnable record =
        () -> {
          metrics.commandEnded(CommandType.GET, node, true, 1_000);
          metrics.commandEnded(CommandType.SET, node, false, 1_000);
          metrics.commandEnded(custom, null, true, 1_000);
          metrics.retry(FailureKind.REDIRECT);
          metrics.redirect();
          metrics.fanOut(3);
        };
    for (int index = 0; index < 20_000; index++) {
      record.run(); // meters created, JIT warmed up
    }
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int index = 0; index < 100_000; index++) {
      record.run();
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    // 600 000 recordings: anything per call would be megabytes; allow for the measurement itself
    assertThat(allocated).isLessThan(64 * 1024);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static NodeHandle handle(Node node) {
    return new NodeHandle(node, null, null);
  }

  private static ProtocolKeyword keyword(String name) {
    return new ProtocolKeyword() {
      private final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);

      @Override
      public byte[] getBytes() {
        return bytes;
      }

      @Override
      public String toString() {
        return name;
      }

      @Override
      public boolean equals(Object other) {
        return other instanceof ProtocolKeyword keyword && name.equals(keyword.toString());
      }

      @Override
      public int hashCode() {
        return name.hashCode();
      }
    };
  }

  private static TopologySnapshot snapshot(long revision, List<Node> nodes, List<Node> leaders) {
    return snapshot(revision, nodes, leaders, List.of());
  }

  /** One shard per leader. */
  private static TopologySnapshot snapshot(
      long revision, List<Node> nodes, List<Node> leaders, List<InvalidEntry> invalid) {
    ShardRoute[] routes = new ShardRoute[leaders.size()];
    for (int shard = 0; shard < routes.length; shard++) {
      routes[shard] = ShardRoute.of(shard, leaders.get(shard), List.of(), 0, ShardState.ACTIVE, 1);
    }
    Map<String, Node> table = new java.util.TreeMap<>();
    nodes.forEach(node -> table.put(node.id(), node));
    return TopologySnapshot.create(
        "prod", revision, TopologyMetadata.of(routes.length), table, routes, invalid, NOW);
  }

  /** A source that only has a status. */
  private static final class FakeSource implements TopologySource {
    volatile TopologySourceStatus status = new TopologySourceStatus(false, -1, null, null);

    @Override
    public CompletionStage<TopologySnapshot> start() {
      return new CompletableFuture<>();
    }

    @Override
    public TopologySnapshot current() {
      throw new IllegalStateException("none");
    }

    @Override
    public AutoCloseable subscribe(TopologyListener listener) {
      return () -> {};
    }

    @Override
    public TopologySourceStatus status() {
      return status;
    }

    @Override
    public String description() {
      return "fake";
    }

    @Override
    public void close() {}
  }
}
