package io.jumpgate.spring.data.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateReactiveCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.ReactiveGeoCommands;
import org.springframework.data.redis.connection.ReactiveHyperLogLogCommands;
import org.springframework.data.redis.connection.ReactivePubSubCommands;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveScriptingCommands;
import org.springframework.data.redis.connection.ReactiveStreamCommands;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reactive families on a recording stand-in for the driver's reactive view (no network): what
 * they ask the driver, and when. The routing itself is tested against real servers in {@code
 * ReactiveSpringDataRedisIT}.
 */
class ReactiveCommandFamiliesTest {

  private static final int SHARDS = 16;
  private static final Node NODE_A = Node.of("node-a", "127.0.0.1", 7001);
  private static final Node NODE_B = Node.of("node-b", "127.0.0.1", 7002);
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final List<String> driverCalls = new ArrayList<>();
  private final ReactiveCommandFamilies families =
      new ReactiveCommandFamilies(recordingDriver(driverCalls), ReactiveCommandFamiliesTest::map);
  private final ReactiveRedisConnection connection = new JumpgateReactiveRedisConnection(families);

  @Test
  void should_not_ask_the_driver_anything_before_a_subscription() {
    // Given commands of several families, never subscribed
    connection.stringCommands().set(buffer("a"), buffer("1"));
    connection.keyCommands().del(buffer("a"));
    connection.hashCommands().hSet(buffer("h"), buffer("f"), buffer("v"));
    connection.listCommands().lPush(buffer("l"), List.of(buffer("v")));
    connection.zSetCommands().zAdd(buffer("z"), 1.0, buffer("m"));
    connection.serverCommands().dbSize();

    // Then: the driver was not asked (dbSize takes the driver's own lazy Mono)
    assertThat(driverCalls).containsExactly("dbsize");

    // When one is subscribed, then exactly its command goes to the driver
    driverCalls.clear();
    connection.stringCommands().get(buffer("a")).blockOptional(WAIT);
    assertThat(driverCalls).containsExactly("get");
  }

  @Test
  void should_refuse_a_cross_shard_rename_when_subscribed_without_asking_the_driver() {
    // Given two keys on two shards
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    String source = "a:0";
    String target = null;
    for (int index = 1; target == null; index++) {
      String candidate = "a:" + index;
      if (router.shardOf(bytes(candidate)) != router.shardOf(bytes(source))) {
        target = candidate;
      }
    }

    // When the RENAME is subscribed
    Mono<Boolean> rename = connection.keyCommands().rename(buffer(source), buffer(target));

    // Then: an error naming the command and the shards, and the driver never asked
    assertThatThrownBy(() -> rename.block(WAIT))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageContaining("RENAME needs all its keys on one shard")
        .hasMessageContaining("shard " + router.shardOf(bytes(source)) + " ")
        .hasMessageContaining("nothing was sent");
    assertThat(driverCalls).isEmpty();
  }

  @Test
  void should_answer_every_command_of_the_refused_families_with_an_error_naming_it() {
    // Given the families not routed in this version
    List<Object> refused =
        List.of(
            connection.geoCommands(),
            connection.hyperLogLogCommands(),
            connection.pubSubCommands(),
            connection.scriptingCommands(),
            connection.streamCommands());
    List<Class<?>> interfaces =
        List.of(
            ReactiveGeoCommands.class,
            ReactiveHyperLogLogCommands.class,
            ReactivePubSubCommands.class,
            ReactiveScriptingCommands.class,
            ReactiveStreamCommands.class);
    int checked = 0;
    for (int family = 0; family < refused.size(); family++) {
      for (Method method : interfaces.get(family).getMethods()) {
        if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
          continue;
        }
        // When each abstract method is called and its answer subscribed
        Object answer = invoke(refused.get(family), method);

        // Then: an error that names a command in capitals and says nothing was sent
        assertThat(answer).as("%s", method).isInstanceOf(Publisher.class);
        assertThatThrownBy(() -> Flux.from((Publisher<?>) answer).blockFirst(WAIT))
            .as("%s", method)
            .isInstanceOf(InvalidDataAccessApiUsageException.class)
            .hasMessageMatching("^[A-Z][A-Z/ ]+ is not supported by Jumpgate's .*")
            .hasMessageContaining("nothing was sent");
        checked++;
      }
    }
    assertThat(checked).as("abstract methods checked").isGreaterThan(30);
    assertThat(driverCalls).isEmpty();
  }

  @Test
  void should_write_score_bounds_as_redis_reads_them() {
    assertThat(RoutedReactiveZSetCommands.lowerScore(Range.closed(1.5, 3.0))).isEqualTo("1.5");
    assertThat(RoutedReactiveZSetCommands.upperScore(Range.closed(1.5, 3.0))).isEqualTo("3.0");
    assertThat(RoutedReactiveZSetCommands.upperScore(Range.rightOpen(1.5, 3.0))).isEqualTo("(3.0");
    assertThat(RoutedReactiveZSetCommands.lowerScore(Range.leftOpen(1.5, 3.0))).isEqualTo("(1.5");
    assertThat(RoutedReactiveZSetCommands.lowerScore(Range.unbounded())).isEqualTo("-inf");
    assertThat(RoutedReactiveZSetCommands.upperScore(Range.unbounded())).isEqualTo("+inf");
    assertThat(RoutedReactiveZSetCommands.upperScore(Range.closed(0.0, Double.POSITIVE_INFINITY)))
        .isEqualTo("+inf");
  }

  @Test
  void should_copy_a_buffers_remaining_bytes_without_moving_it() {
    ByteBuffer buffer = ByteBuffer.wrap(bytes("xkey"));
    buffer.get();

    assertThat(ReactiveConversions.bytes(buffer)).isEqualTo(bytes("key"));
    assertThat(buffer.position()).isEqualTo(1);
    assertThat(ReactiveConversions.firstIndex(Range.unbounded())).isZero();
    assertThat(ReactiveConversions.lastIndex(Range.unbounded())).isEqualTo(-1);
    assertThat(ReactiveConversions.lastIndex(Range.closed(2L, 5L))).isEqualTo(5);
  }

  private static Object invoke(Object target, Method method) {
    Object[] arguments = new Object[method.getParameterCount()];
    Class<?>[] types = method.getParameterTypes();
    for (int index = 0; index < arguments.length; index++) {
      if (types[index] == int.class) {
        arguments[index] = 0;
      } else if (types[index] == long.class) {
        arguments[index] = 0L;
      } else if (types[index] == boolean.class) {
        arguments[index] = false;
      } else if (types[index] == double.class) {
        arguments[index] = 0.0;
      } else if (types[index].isArray()) {
        arguments[index] = java.lang.reflect.Array.newInstance(types[index].getComponentType(), 0);
      }
    }
    try {
      return method.invoke(target, arguments);
    } catch (ReflectiveOperationException failure) {
      throw new AssertionError(method + " failed to run", failure);
    }
  }

  /**
   * A stand-in for the driver's reactive view that records the name of each method called (which is
   * when the driver would build its command) and answers empty.
   */
  @SuppressWarnings("unchecked")
  private static JumpgateReactiveCommands<byte[], byte[]> recordingDriver(List<String> calls) {
    return (JumpgateReactiveCommands<byte[], byte[]>)
        Proxy.newProxyInstance(
            ReactiveCommandFamiliesTest.class.getClassLoader(),
            new Class<?>[] {JumpgateReactiveCommands.class},
            (proxy, method, arguments) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("toString") ? "recording driver" : null;
              }
              calls.add(method.getName());
              return Flux.class.isAssignableFrom(method.getReturnType())
                  ? Flux.empty()
                  : Mono.empty();
            });
  }

  private static ByteBuffer buffer(String text) {
    return ByteBuffer.wrap(bytes(text));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static TopologySnapshot map() {
    ShardRoute[] routes = new ShardRoute[SHARDS];
    for (int shard = 0; shard < SHARDS; shard++) {
      routes[shard] =
          ShardRoute.of(
              shard, shard % 2 == 0 ? NODE_A : NODE_B, List.of(), 1, ShardState.ACTIVE, 1);
    }
    return TopologySnapshot.create(
        "test",
        1,
        TopologyMetadata.of(SHARDS),
        Map.of(NODE_A.id(), NODE_A, NODE_B.id(), NODE_B),
        routes,
        List.of(),
        Instant.EPOCH);
  }
}
