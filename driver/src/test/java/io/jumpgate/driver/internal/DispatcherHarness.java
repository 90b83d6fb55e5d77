package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.CommandEvent;
import io.jumpgate.driver.CommandListener;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.driver.RetryPolicy;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandType;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A dispatcher over fake nodes (a and b) and a virtual clock, with 4 shards all led by one node,
 * for the tests of its failure paths and its freezes. Single-threaded unless a test says otherwise.
 */
abstract class DispatcherHarness {

  static final long MILLIS = TimeUnit.MILLISECONDS.toNanos(1);
  static final Duration TIMEOUT = Duration.ofSeconds(1);
  static final Duration FREEZE_WAIT = Duration.ofMillis(500);

  final ManualScheduler scheduler = new ManualScheduler();
  final FakeNodes nodes = new FakeNodes();
  final Node a = Node.of("a", "127.0.0.1", 7001);
  final Node b = Node.of("b", "127.0.0.1", 7002);
  Dispatcher dispatcher;
  int freezeMaxRequests = JumpgateOptions.DEFAULT_FREEZE_MAX_REQUESTS;
  RetryPolicy retryPolicy = RetryPolicy.standard();

  /** What the options' command listener heard: one event per command that ended. */
  final List<CommandEvent> ended = new java.util.concurrent.CopyOnWriteArrayList<>();

  CommandExecutor<String, String> executor;
  long revision;

  void start(RetryOptions retry, int maxWaitingForTopology) {
    JumpgateOptions options =
        JumpgateOptions.builder()
            .topologySource(unusedSource())
            .freezeBuffer(freezeMaxRequests, FREEZE_WAIT)
            .commandTimeout(TIMEOUT)
            .retry(retry)
            .retryPolicy(retryPolicy)
            .commandListener(
                new CommandListener() {
                  @Override
                  public void commandEnded(CommandEvent event) {
                    ended.add(event);
                  }
                })
            .build();
    dispatcher =
        new Dispatcher(options, nodes, scheduler, DriverMetrics.NONE, maxWaitingForTopology);
    executor =
        new CommandExecutor<>(
            StringCodec.UTF8,
            KeyRouter.of(StringCodec.UTF8, Xxh64JumpRouter.forShards(4)),
            dispatcher,
            TIMEOUT.toNanos());
    publish(a);
  }

  void start() {
    start(RetryOptions.defaults(), TopologyWaiters.DEFAULT_CAPACITY);
  }

  /** A new map revision in which every shard is led by {@code leader}. */
  void publish(Node leader) {
    publish(leader, false, false);
  }

  /**
   * A new map revision in which every shard is led by {@code leader}; shard 0 is frozen for a
   * migration to the other node when {@code frozen}, under a live migration lock when {@code
   * locked}.
   */
  void publish(Node leader, boolean frozen, boolean locked) {
    Map<String, Node> all = new LinkedHashMap<>();
    all.put(a.id(), a);
    all.put(b.id(), b);
    ShardRoute[] routes = new ShardRoute[4];
    revision++;
    Node other = leader == a ? b : a;
    for (int shard = 0; shard < routes.length; shard++) {
      routes[shard] =
          frozen && shard == 0
              ? ShardRoute.of(
                  shard,
                  leader,
                  List.of(),
                  revision,
                  ShardState.FROZEN,
                  new ShardMigration("m1", other),
                  revision)
              : ShardRoute.of(shard, leader, List.of(), revision, ShardState.ACTIVE, revision);
    }
    TopologySnapshot snapshot =
        TopologySnapshot.create(
            "unit",
            revision,
            TopologyMetadata.of(4),
            all,
            routes,
            List.of(),
            Instant.now(),
            locked ? new MigrationLock("m1", "mover:1", "2026-11-24T00:00:00Z", 1) : null);
    dispatcher.onTopologyChange(null, snapshot);
  }

  RoutedCommand<String, String, String> get() {
    return executor.toShard(
        CommandType.GET, 0, executor.args("k"), Outputs.value(), CommandFlags.READ_ONLY);
  }

  RoutedCommand<String, String, Long> incr() {
    return executor.toShard(
        CommandType.INCR, 0, executor.args("k"), Outputs.integer(), CommandFlags.WRITE);
  }

  FakeNodes.Connection at(Node node) {
    return nodes.connection(node.address());
  }

  static Throwable failureOf(CompletableFuture<?> future) {
    assertThat(future).isCompletedExceptionally();
    try {
      future.join();
      throw new AssertionError("not failed");
    } catch (CancellationException e) {
      return e;
    } catch (RuntimeException e) {
      return e.getCause();
    }
  }

  static TopologySource unusedSource() {
    return (TopologySource)
        Proxy.newProxyInstance(
            DispatcherTest.class.getClassLoader(),
            new Class<?>[] {TopologySource.class},
            (self, method, arguments) -> {
              if (method.getName().equals("description") || method.getName().equals("toString")) {
                return "unit";
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
