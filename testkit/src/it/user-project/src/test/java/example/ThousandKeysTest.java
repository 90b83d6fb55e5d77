package example;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.testkit.JumpgateTest;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

@JumpgateTest(nodes = 3)
class ThousandKeysTest {

  @Test
  void should_store_each_key_on_its_leader_only(JumpgateClient client) throws Exception {
    var redis = client.connect().sync();
    TopologySnapshot map = client.topology();
    var router = Xxh64JumpRouter.forShards(map.shardCount());
    Map<String, StatefulRedisConnection<String, String>> nodes = new HashMap<>();
    for (Node node : map.nodes().values()) {
      var connection = client.connectToNode(node, StringCodec.UTF8).toCompletableFuture();
      nodes.put(node.id(), connection.get(5, SECONDS));
    }
    assertEquals(3, nodes.size(), "nodes in the map");
    try {
      for (int i = 0; i < 1000; i++) {
        String key = "order:" + i;
        String value = "value " + i;
        redis.set(key, value);
        String leader = map.route(router.shardOfUtf8(key)).leader().id();
        nodes.forEach(
            (id, node) ->
                assertEquals(
                    id.equals(leader) ? value : null, node.sync().get(key), key + " on " + id));
      }
    } finally {
      nodes.values().forEach(StatefulRedisConnection::close);
    }
  }
}
