package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.ScriptedRespServer.Reply;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import io.lettuce.core.KeyValue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a multi-key command is split into parts, end to end against RESP servers that answer each
 * MGET key with a value derived from it: every key reaches the node that leads its shard exactly
 * once, each part holds its keys in request order, and the merged answer is in request order. By
 * node (one pass), by shard with few shards (one pass, up to its part limit) and by shard over more
 * shards than one pass handles (the sorted grouping).
 */
class FanOutPartsTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  private final List<ScriptedRespServer> servers = new ArrayList<>();
  private JumpgateClient client;

  @AfterEach
  void closeEverything() throws Exception {
    try {
      if (client != null) {
        client.close();
      }
    } finally {
      for (ScriptedRespServer server : servers) {
        server.close();
      }
    }
  }

  @Test
  void should_send_each_key_once_to_its_node_in_request_order_when_grouping_by_node()
      throws Exception {
    check(FanOutGrouping.BY_NODE, 64, 3);
  }

  @Test
  void should_send_one_part_per_shard_in_one_pass_up_to_its_limit() throws Exception {
    check(FanOutGrouping.BY_SHARD, 16, 16);
  }

  @Test
  void should_send_one_part_per_shard_by_sorting_past_the_one_pass_limit() throws Exception {
    check(FanOutGrouping.BY_SHARD, 64, 64);
  }

  @Test
  void should_answer_the_keys_asked_for_when_the_caller_reuses_its_array_before_the_answers()
      throws Exception {
    int shards = 64;
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shards);
    CountDownLatch release = new CountDownLatch(1);
    List<Node> nodes = startServers(arguments -> Reply.with(echoValues(arguments)).after(release));
    client = JumpgateClient.create(options(shards, nodes).build());
    JumpgateAsyncCommands<String, String> redis = client.connect().async();
    String[] keys = new String[30];
    for (int index = 0; index < keys.length; index++) {
      keys[index] = "key-" + index;
    }
    List<String> asked = List.of(keys.clone());

    // Given an MGET whose parts every server received and holds the answers of
    CompletableFuture<List<KeyValue<String, String>>> answers =
        redis.mget(keys).toCompletableFuture();
    Set<Integer> nodesUsed = new HashSet<>();
    for (String key : asked) {
      nodesUsed.add(router.shardOfUtf8(key) % 3);
    }
    for (int node : nodesUsed) {
      assertThat(servers.get(node).awaitCommand("MGET", WAIT)).isNotNull();
    }

    // When the caller fills its array with the next request's keys before the answers come
    for (int index = 0; index < keys.length; index++) {
      keys[index] = "next-" + index;
    }
    release.countDown();

    // Then the answer is the one for the keys asked for, in their order
    List<KeyValue<String, String>> answered = answers.get(WAIT.toNanos(), TimeUnit.NANOSECONDS);
    assertThat(answered).extracting(KeyValue::getKey).containsExactlyElementsOf(asked);
    for (KeyValue<String, String> answer : answered) {
      assertThat(answer.getValue()).isEqualTo("value-of-" + answer.getKey());
    }
  }

  /** Client options: shard s led by {@code nodes[s mod 3]}, commands bounded by {@link #WAIT}. */
  private static JumpgateOptions.Builder options(int shards, List<Node> nodes) {
    return JumpgateOptions.builder()
        .topologySource(
            InMemoryTopologySource.withLeaders(shards, nodes, shard -> nodes.get(shard % 3)))
        .commandTimeout(WAIT);
  }

  /** Three scripted servers that answer MGET with {@code mget}; their nodes, in order. */
  private List<Node> startServers(Function<List<String>, Reply> mget) throws IOException {
    List<Node> nodes = new ArrayList<>();
    for (int index = 0; index < 3; index++) {
      ScriptedRespServer server = ScriptedRespServer.start();
      servers.add(server);
      server.on("MGET", mget);
      nodes.add(Node.of("node-" + index, "127.0.0.1", server.port()));
    }
    return nodes;
  }

  /**
   * MGETs of random keys (repeats included) over three servers; checks answers, and the parts the
   * servers received against the parts expected.
   *
   * @param expectedMaxParts the most parts one request may make
   */
  private void check(FanOutGrouping grouping, int shards, int expectedMaxParts) throws Exception {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shards);
    List<Node> nodes = startServers(arguments -> Reply.with(echoValues(arguments)));
    client = JumpgateClient.create(options(shards, nodes).fanOutGrouping(grouping).build());
    JumpgateAsyncCommands<String, String> redis = client.connect().async();
    Random random = new Random(14);
    for (int round = 0; round < 20; round++) {
      String[] keys = new String[1 + random.nextInt(300)];
      for (int index = 0; index < keys.length; index++) {
        keys[index] = "key-" + random.nextInt(500);
      }

      List<KeyValue<String, String>> answers =
          redis.mget(keys).toCompletableFuture().get(WAIT.toNanos(), TimeUnit.NANOSECONDS);

      assertThat(answers).hasSize(keys.length);
      for (int index = 0; index < keys.length; index++) {
        assertThat(answers.get(index).getKey()).isEqualTo(keys[index]);
        assertThat(answers.get(index).getValue()).isEqualTo("value-of-" + keys[index]);
      }
      // every part a server received: its keys, all on that server, in request order
      Map<String, Integer> sent = new HashMap<>();
      Set<Integer> partGroups = new HashSet<>();
      int parts = 0;
      for (int server = 0; server < 3; server++) {
        List<List<String>> received = drain(servers.get(server));
        for (List<String> command : received) {
          parts++;
          assertThat(command.get(0)).isEqualTo("MGET");
          List<String> partKeys = command.subList(1, command.size());
          Set<Integer> shardsOfPart = new HashSet<>();
          for (String key : partKeys) {
            int shard = router.shardOfUtf8(key);
            assertThat(shard % 3).as("node of %s", key).isEqualTo(server);
            shardsOfPart.add(shard);
            sent.merge(key, 1, Integer::sum);
          }
          if (grouping == FanOutGrouping.BY_SHARD) {
            assertThat(shardsOfPart).as("a part by shard holds one shard").hasSize(1);
            assertThat(partGroups.add(shardsOfPart.iterator().next())).isTrue();
          }
          assertThat(partKeys).containsExactlyElementsOf(inRequestOrder(keys, partKeys));
        }
      }
      Map<String, Integer> expected = new HashMap<>();
      for (String key : keys) {
        expected.merge(key, 1, Integer::sum);
      }
      assertThat(sent).as("each key sent as often as it was asked").isEqualTo(expected);
      assertThat(parts).isLessThanOrEqualTo(expectedMaxParts);
      if (grouping == FanOutGrouping.BY_NODE) {
        long nodesUsed =
            expected.keySet().stream().map(k -> router.shardOfUtf8(k) % 3).distinct().count();
        assertThat(parts).as("one part per node").isEqualTo((int) nodesUsed);
      }
    }
  }

  /** The request's keys that are in this part, in request order (repeats kept). */
  private static List<String> inRequestOrder(String[] keys, List<String> partKeys) {
    Set<String> inPart = new HashSet<>(partKeys);
    List<String> ordered = new ArrayList<>();
    for (String key : keys) {
      if (inPart.contains(key)) {
        ordered.add(key);
      }
    }
    return ordered;
  }

  /** The MGET commands the server received so far (each request's parts have all been answered). */
  private static List<List<String>> drain(ScriptedRespServer server) throws InterruptedException {
    List<List<String>> commands = new ArrayList<>();
    for (String name : server.receivedCommands()) {
      if (name.equalsIgnoreCase("MGET")) {
        commands.add(server.awaitCommand("MGET", WAIT));
      }
    }
    return commands;
  }

  private static String echoValues(List<String> arguments) {
    StringBuilder resp = new StringBuilder("*").append(arguments.size() - 1).append("\r\n");
    for (String key : arguments.subList(1, arguments.size())) {
      String value = "value-of-" + key;
      resp.append('$').append(value.length()).append("\r\n").append(value).append("\r\n");
    }
    return resp.toString();
  }
}
