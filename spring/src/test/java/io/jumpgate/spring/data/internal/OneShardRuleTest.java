package io.jumpgate.spring.data.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.dao.InvalidDataAccessApiUsageException;

class OneShardRuleTest {

  private static final int SHARDS = 16;
  private static final Node NODE_A = Node.of("node-a", "127.0.0.1", 7001);
  private static final Node NODE_B = Node.of("node-b", "127.0.0.1", 7002);

  private final TopologySnapshot snapshot = snapshot();
  private final OneShardRule rule = new OneShardRule(() -> snapshot);
  private final Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);

  @Test
  void should_return_the_shard_the_routing_core_names_when_the_keys_share_a_hash_tag() {
    // Given keys under one hash tag
    byte[] first = bytes("{user42}.profile");
    byte[] second = bytes("{user42}.sessions");

    // When / Then: the shard is the routing core's shard of the tag
    assertThat(rule.requireOneShard("RENAME", first, second))
        .isEqualTo(router.shardOf(bytes("user42")))
        .isEqualTo(router.shardOf(first));
  }

  @Test
  void should_refuse_keys_of_two_shards_naming_the_command_shards_leaders_and_keys() {
    // Given two keys on different shards
    String first = "a:0";
    String second = keyOnAnotherShard(first);
    int firstShard = router.shardOf(bytes(first));
    int secondShard = router.shardOf(bytes(second));

    // When / Then
    assertThatThrownBy(() -> rule.requireOneShard("SMOVE", bytes(first), bytes(second)))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageStartingWith("SMOVE needs all its keys on one shard, but they are on 2 shards")
        .hasMessageContaining(
            "shard " + firstShard + " (leader " + leaderOf(firstShard) + ", key '" + first + "')")
        .hasMessageContaining(
            "shard "
                + secondShard
                + " (leader "
                + leaderOf(secondShard)
                + ", key '"
                + second
                + "')")
        .hasMessageContaining("nothing was sent")
        .hasMessageContaining("hash tag");
  }

  @Test
  void should_refuse_no_key() {
    assertThatThrownBy(() -> rule.requireOneShard("SINTER"))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessage("SINTER needs at least one key");
  }

  @Test
  void should_route_utf8_keys_like_the_driver_does_for_a_string_key() {
    // A non-ASCII key: its UTF-8 bytes are what the driver hashes for the String key
    String key = "café:{ünï}";
    assertThat(rule.requireOneShard("GET", key.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(router.shardOf(key.getBytes(StandardCharsets.UTF_8)));
  }

  private String keyOnAnotherShard(String key) {
    for (int index = 0; ; index++) {
      String other = "b:" + index;
      if (router.shardOf(bytes(other)) != router.shardOf(bytes(key))) {
        return other;
      }
    }
  }

  private String leaderOf(int shard) {
    return snapshot.route(shard).leader().id();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static TopologySnapshot snapshot() {
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
